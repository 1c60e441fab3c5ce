package redact

import (
	"math"
	"regexp"
	"strings"
	"sync"
)

// Mask replaces every redacted value.
const Mask = "***"

// secretWords are the name segments that make a flag, variable, query
// parameter or header name a credential's.
var secretWords = map[string]bool{
	"token": true, "key": true, "apikey": true, "secret": true, "password": true,
	"passwd": true, "pwd": true, "pass": true, "passphrase": true, "credential": true,
	"credentials": true, "auth": true, "authorization": true, "bearer": true,
	"cookie": true, "pat": true, "accesstoken": true, "authtoken": true, "apitoken": true,
	"privatekey": true, "clientsecret": true, "sessiontoken": true, "refreshtoken": true,
	"signature": true, "sig": true,
}

// notSecretLast are last name segments that say the value names or
// measures a credential rather than being one (--token-file, --key-env).
var notSecretLast = map[string]bool{
	"file": true, "path": true, "dir": true, "env": true, "var": true, "name": true,
	"id": true, "type": true, "length": true, "len": true, "count": true, "limit": true,
	"size": true, "header": true, "prefix": true, "helper": true, "command": true,
	"json": true, "yaml": true, "yml": true, "toml": true, "txt": true, "pem": true,
}

// SecretName reports whether name (a flag without its dashes, a variable,
// a query parameter or header name) names a credential.
func SecretName(name string) bool {
	segs := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
	if len(segs) == 0 || notSecretLast[segs[len(segs)-1]] {
		return false
	}
	for _, s := range segs {
		if secretWords[s] {
			return true
		}
	}
	// One word without separators: apiKey, accesstoken, GITHUB_PAT is split above.
	joined := strings.Join(segs, "")
	for _, suffix := range []string{"token", "apikey", "secret", "password", "passwd"} {
		if strings.HasSuffix(joined, suffix) {
			return true
		}
	}
	return false
}

// keyPatterns match credentials by their shape, wherever they appear.
var keyPatterns = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(strings.Join([]string{
		`sk-[A-Za-z0-9_-]{16,}`,                                   // OpenAI, Anthropic (sk-ant-...)
		`(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}`,             // Stripe
		`gh[pousr]_[A-Za-z0-9]{30,}`,                              // GitHub tokens
		`github_pat_[A-Za-z0-9_]{30,}`,                            // GitHub fine-grained tokens
		`glpat-[A-Za-z0-9_-]{20,}`,                                // GitLab
		`xox[abposre]-[A-Za-z0-9-]{10,}`,                          // Slack
		`(?:AKIA|ASIA)[0-9A-Z]{16}`,                               // AWS access key ids
		`AIza[0-9A-Za-z_-]{35}`,                                   // Google API keys
		`npm_[A-Za-z0-9]{36}`,                                     // npm
		`eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`, // JWT
		`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`,
	}, "|"))
})

// keyStarts are the literal starts one of keyPatterns needs, in order:
// a text with none of them holds no key shape, and is not run through the
// expression (check redacts every string of its report).
var keyStarts = []string{"sk-", "sk_", "rk_", "pk_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
	"xox", "AKIA", "ASIA", "AIza", "npm_", "eyJ", "-----BEGIN "}

// mayHoldKey reports whether s holds a start of a key shape.
func mayHoldKey(s string) bool {
	for _, k := range keyStarts {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}

// hideKeys replaces the key shapes in s.
func hideKeys(s string) string {
	if !mayHoldKey(s) {
		return s
	}
	return keyPatterns().ReplaceAllString(s, Mask)
}

// candidate is a run of characters a random key is made of.
var candidate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z0-9+/_=.-]{32,}`)
})

// LooksSecret reports whether v, a whole value, is shaped like a
// credential: a known key format, or a long random string.
func LooksSecret(v string) bool {
	if loc := keyPatterns().FindStringIndex(v); loc != nil {
		return true
	}
	return highEntropy(v)
}

// highEntropy reports a string of 32 or more key characters, with letters
// and digits, no path or word structure, and at least 3.5 bits of entropy
// a character: the shape of a random token rather than a name or a path.
func highEntropy(v string) bool {
	if len(v) < 32 || len(v) > 4096 {
		return false
	}
	var letters, digits, seps int
	var counts [256]int
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letters++
		case c >= '0' && c <= '9':
			digits++
		case c == '+' || c == '_' || c == '=' || c == '-':
		case c == '/' || c == '.':
			seps++
		default:
			return false
		}
		counts[c]++
	}
	// A path or a dotted name (a/b/c, x.y.z) is structure, not randomness.
	if letters == 0 || digits == 0 || seps > 2 {
		return false
	}
	var h float64
	n := float64(len(v))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h >= 3.5
}

// Map returns a copy of m with every non-empty value hidden and the names
// kept: a config's env values and headers are never shown.
func Map(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
		if v != "" {
			out[k] = Mask
		}
	}
	return out
}
