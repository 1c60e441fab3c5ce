package redact

import "strings"

// URL hides the secret parts of a URL, as text (it need not parse): the
// password of its user information, or the whole of a user name given
// alone (often a token); every query and fragment value; and path
// segments shaped like a key. The rest is kept byte for byte.
func URL(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return hideSegments(u)
	}
	rest := u[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	authority := rest[:end]
	if at := strings.LastIndex(authority, "@"); at >= 0 {
		user, _, hasPass := strings.Cut(authority[:at], ":")
		if hasPass {
			authority = user + ":" + Mask + authority[at:]
		} else {
			authority = Mask + authority[at:]
		}
	}
	return u[:i+3] + authority + hideSegments(rest[end:])
}

// hideSegments hides the secrets of a URL's path, query and fragment.
func hideSegments(s string) string {
	path, query, hasQuery := strings.Cut(s, "?")
	frag, hasFrag := "", false
	if hasQuery {
		query, frag, hasFrag = strings.Cut(query, "#")
	} else {
		path, frag, hasFrag = strings.Cut(path, "#")
	}
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		if LooksSecret(seg) {
			segs[i] = Mask
		}
	}
	out := strings.Join(segs, "/")
	if hasQuery {
		out += "?" + hideValues(query)
	}
	if hasFrag {
		if strings.Contains(frag, "=") {
			frag = hideValues(frag)
		} else if LooksSecret(frag) {
			frag = Mask
		}
		out += "#" + frag
	}
	return out
}

// hideValues hides every value of an a=1&b=2 list, and any bare item
// shaped like a key.
func hideValues(q string) string {
	parts := strings.Split(q, "&")
	for i, p := range parts {
		if k, v, ok := strings.Cut(p, "="); ok {
			if v != "" {
				parts[i] = k + "=" + Mask
			}
		} else if LooksSecret(p) {
			parts[i] = Mask
		}
	}
	return strings.Join(parts, "&")
}
