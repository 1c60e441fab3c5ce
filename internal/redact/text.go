package redact

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Args returns a copy of a command's arguments with credentials hidden:
// the value of a credential flag (--token V, --api-key=V), of a credential
// assignment (API_KEY=V, token=V), key-shaped values, and the secret parts
// of URLs.
func Args(args []string) []string { return (*Redactor)(nil).Args(args) }

// String hides the credentials in free text: key-shaped values, the
// values of credential assignments (token=V, "password": "V",
// Authorization: Bearer V) and the secret parts of URLs.
func String(s string) string { return (*Redactor)(nil).String(s) }

// A Redactor hides, besides what String finds, the exact values it was
// given, such as a config's env values and headers, which a server may
// echo in an error or on stderr. The nil Redactor knows no values.
type Redactor struct {
	values []string // longest first, so a value is not cut by a prefix of it
}

// minKnown is the shortest value a Redactor hides wherever it appears:
// shorter ones would cut ordinary words out of the text.
const minKnown = 6

// New returns a Redactor that hides values.
func New() *Redactor { return &Redactor{} }

// Add makes r hide value wherever it appears, when it is a credential:
// name (a variable or header name) names one, or value looks like one.
// Values shorter than six bytes are hidden only where String hides them.
func (r *Redactor) Add(name, value string) {
	if len(value) < minKnown || !(SecretName(name) || LooksSecret(value)) {
		return
	}
	for _, k := range r.values {
		if k == value {
			return
		}
	}
	r.values = append(r.values, value)
	sort.Slice(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
}

// AddSecret makes r hide value wherever it appears, whatever its name: a
// value the user gave a server (a config's env or header value, a query
// value of its URL), which only the user knows not to be a secret.
// Values shorter than six bytes are hidden only where String hides them,
// so that "1" or "true" does not cut words out of a text.
func (r *Redactor) AddSecret(value string) {
	if len(value) < minKnown || value == Mask {
		return
	}
	for _, k := range r.values {
		if k == value {
			return
		}
	}
	r.values = append(r.values, value)
	sort.Slice(r.values, func(i, j int) bool { return len(r.values[i]) > len(r.values[j]) })
}

// Args is the package's Args, also hiding r's values.
func (r *Redactor) Args(args []string) []string {
	out := make([]string, len(args))
	hideNext := false
	for i, a := range args {
		if hideNext && a != "" && !strings.HasPrefix(a, "-") {
			out[i], hideNext = Mask, false
			continue
		}
		hideNext = false
		if strings.HasPrefix(a, "-") {
			name, value, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
			switch {
			case SecretName(name) && eq:
				out[i] = a[:len(a)-len(value)] + Mask
				continue
			case SecretName(name):
				hideNext = true
			}
		} else if name, _, eq := strings.Cut(a, "="); eq && isName(name) && SecretName(name) {
			out[i] = name + "=" + Mask
			continue
		}
		out[i] = r.String(a)
	}
	return out
}

// isName reports whether s can be a variable or parameter name.
func isName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

var (
	urlPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>` + "`" + `]+`)
	})
	// assignPattern is name=value and "name": "value"; a bare name: value
	// is prose ("reading key.json: no such file"), not an assignment. A
	// value ends before a closing bracket, as in a help text's
	// "[--api-key=KEY]".
	assignPattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`("?)([A-Za-z0-9_.-]+)("?\s*[:=]\s*"?)([^\s"'&,;\])}>]+)`)
	})
	schemePattern = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(bearer|basic|token)(\s+)([A-Za-z0-9+/_.~=-]{8,})`)
	})
)

// String is the package's String, also hiding r's values.
func (r *Redactor) String(s string) string {
	s = r.hideKnown(s)
	s = urlPattern().ReplaceAllStringFunc(s, URL)
	s = hideKeys(s)
	s = schemePattern().ReplaceAllString(s, "$1$2"+Mask)
	s = assignPattern().ReplaceAllStringFunc(s, func(m string) string {
		sub := assignPattern().FindStringSubmatch(m)
		if !secretAssignment(sub) {
			return m
		}
		return sub[1] + sub[2] + sub[3] + Mask
	})
	return candidate().ReplaceAllStringFunc(s, func(m string) string {
		if highEntropy(m) {
			return Mask
		}
		return m
	})
}

// secretAssignment reports whether sub, a match of assignPattern, assigns
// a credential String hides: a secret name, a value that is not already
// hidden nor an authorization scheme, and not a bare "name: value" (prose,
// not an assignment).
func secretAssignment(sub []string) bool {
	name, sep, value := sub[2], sub[3], sub[4]
	return SecretName(name) && value != Mask && !isScheme(value) && !(strings.Contains(sep, ":") && sub[1] == "")
}

// isScheme reports an authorization scheme, which precedes the secret.
func isScheme(v string) bool {
	return strings.EqualFold(v, "bearer") || strings.EqualFold(v, "basic") || strings.EqualFold(v, "token")
}

// AddArgs makes r hide, wherever they appear, the values that Args hides
// in args by their flag or variable name (--token V, --api-key=V, KEY=V).
func (r *Redactor) AddArgs(args []string) {
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			name, value, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
			switch {
			case SecretName(name) && eq:
				r.Add(name, value)
			case SecretName(name) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
				r.Add(name, args[i+1])
			}
		} else if name, value, eq := strings.Cut(a, "="); eq && isName(name) && SecretName(name) {
			r.Add(name, value)
		}
	}
}

// Prose hides r's values and key-shaped values in text a server wrote for
// people or models (instructions, tool descriptions), where "token: x" is
// prose rather than an assignment.
func (r *Redactor) Prose(s string) string {
	return hideKeys(r.hideKnown(s))
}

// hideKnown replaces r's values in s.
func (r *Redactor) hideKnown(s string) string {
	if r == nil {
		return s
	}
	for _, k := range r.values {
		// Again until none is left: "abcabc" in "abcabcabc" leaves one.
		for strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, Mask)
		}
	}
	return s
}

// ProsePieces is Prose of the text pieces make together, cut back into
// the same pieces: a value that spans a cut is hidden in every piece it
// reaches (its part there replaced by Mask), where Prose of each piece
// alone would leave both halves.
func (r *Redactor) ProsePieces(pieces []string) []string {
	whole := strings.Join(pieces, "")
	hidden := make([]bool, len(whole))
	mark := func(i, j int) {
		for k := i; k < j; k++ {
			hidden[k] = true
		}
	}
	if r != nil {
		for _, v := range r.values {
			for i := 0; ; {
				k := strings.Index(whole[i:], v)
				if k < 0 {
					break
				}
				mark(i+k, i+k+len(v))
				i += k + 1
			}
		}
	}
	if mayHoldKey(whole) {
		for _, m := range keyPatterns().FindAllStringIndex(whole, -1) {
			mark(m[0], m[1])
		}
	}
	out := make([]string, len(pieces))
	at := 0
	for n, p := range pieces {
		var b strings.Builder
		for i := 0; i < len(p); {
			j := i
			for j < len(p) && hidden[at+j] == hidden[at+i] {
				j++
			}
			if hidden[at+i] {
				b.WriteString(Mask)
			} else {
				b.WriteString(p[i:j])
			}
			i = j
		}
		out[n] = b.String()
		at += len(p)
	}
	return out
}

// Learn makes r hide, wherever they appear, the values String hides in s
// by their shape or their name: a credential flag's or assignment's
// value, a token after an authorization scheme, a key shape, a long
// random string. A server that prints "--token=VALUE" on its stderr has
// VALUE hidden in its instructions, its tools and every finding that
// quotes them too, not only where the assignment is.
func (r *Redactor) Learn(s string) {
	if r == nil || s == "" {
		return
	}
	for _, m := range assignPattern().FindAllStringSubmatch(s, -1) {
		if secretAssignment(m) {
			r.AddSecret(m[4])
		}
	}
	for _, m := range schemePattern().FindAllStringSubmatch(s, -1) {
		r.AddSecret(m[3])
	}
	for _, m := range keyPatterns().FindAllString(s, -1) {
		r.AddSecret(m)
	}
	for _, m := range candidate().FindAllString(s, -1) {
		if highEntropy(m) {
			r.AddSecret(m)
		}
	}
}

// Known hides r's known values in s, and nothing else: for what instrlab
// wrote itself around them (a run's results), where a key shape may be a
// fake API's key or a hash, not a credential.
func (r *Redactor) Known(s string) string { return r.hideKnown(s) }

// Knows reports whether r holds any value to hide by value.
func (r *Redactor) Knows() bool { return r != nil && len(r.values) > 0 }
