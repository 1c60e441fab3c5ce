package analyze

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
)

// The regexps are compiled on first use, not at every start of instrlab.
var (
	uuidRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)
	})
	idRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(toolu|msg|req|srvtoolu)_[0-9A-Za-z]+`) })
	hex64RE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[0-9a-f]{64}\b`) })
	portRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`127\.0\.0\.1:[0-9]+`) })
)

// Normalize rewrites a request body so that two repeats of one row compare
// equal when they differ only in what differs per run: the metadata field,
// ids (uuids, toolu_, msg_), 64-digit hex device ids, loopback ports and the
// run's own paths (given in paths, longest first).
func Normalize(body []byte, paths []string) []byte {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return body
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "metadata")
	}
	v = normalizeValue(v, paths)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return body
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

func normalizeValue(v any, paths []string) any {
	switch x := v.(type) {
	case string:
		for _, p := range paths {
			if p != "" {
				x = strings.ReplaceAll(x, p, "$RUN")
			}
		}
		// The cheap tests keep the regexps off the long texts that
		// cannot match them (a client's system prompt, tens of KiB, in
		// every request): each is a condition every match needs.
		if mayHoldUUID(x) {
			x = uuidRE().ReplaceAllString(x, "<uuid>")
		}
		if mayHoldID(x) {
			x = idRE().ReplaceAllString(x, "${1}_<id>")
		}
		if hasHexRun(x, 64) {
			x = hex64RE().ReplaceAllString(x, "<hex>")
		}
		if strings.Contains(x, "127.0.0.1:") {
			x = portRE().ReplaceAllString(x, "127.0.0.1:<port>")
		}
		return x
	case []any:
		for i := range x {
			x[i] = normalizeValue(x[i], paths)
		}
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeValue(e, paths)
		}
	}
	return v
}

// requestKey is a short hash of a normalised body.
func requestKey(body []byte, paths []string) string {
	sum := sha256.Sum256(Normalize(body, paths))
	return hex.EncodeToString(sum[:8])
}

// escapedPath is how Claude Code and others escape a directory into a file
// name: every character that is not a letter or digit becomes '-'.
func escapedPath(p string) string {
	var b strings.Builder
	for _, r := range p {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// mayHoldUUID reports whether s has a dash with eight hex digits before it
// and four and a dash after it: what every match of uuidRE starts with.
func mayHoldUUID(s string) bool {
	for i := 8; i+6 <= len(s); i++ {
		if s[i] == '-' && allHex(s[i-8:i]) && allHex(s[i+1:i+5]) && s[i+5] == '-' {
			return true
		}
	}
	return false
}

// mayHoldID reports whether s holds one of idRE's prefixes and its
// underscore ("srvtoolu_" holds "toolu_").
func mayHoldID(s string) bool {
	return strings.Contains(s, "toolu_") || strings.Contains(s, "msg_") || strings.Contains(s, "req_")
}

// hasHexRun reports whether s has n lower-case hex digits in a row, as
// every match of hex64RE does.
func hasHexRun(s string, n int) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' || c >= 'a' && c <= 'f' {
			if run++; run >= n {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
