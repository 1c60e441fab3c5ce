package assess

import (
	"fmt"
	"time"
	"unicode"

	"github.com/instrlab/instrlab/internal/profiles"
)

// A wait is how long a client following a profile waits for a server to
// connect, and where that number comes from.
type wait struct {
	d   time.Duration // 0: unknown
	why string        // "MCP_TIMEOUT, default" or "MCP_TIMEOUT=60000"
}

// startupWait reads the profile's startup wait, with its setting taken
// from the environment as Claude Code reads MCP_TIMEOUT:
// parseInt(value, 10) || default, so "25,000" is 25 ms, "10s" is 10 ms,
// and "0" or "abc" give the default.
func startupWait(p profiles.Profile, getenv func(string) (string, bool)) wait {
	w := wait{d: time.Duration(p.Startup.TimeoutMs) * time.Millisecond}
	if p.Startup.Setting == "" {
		return w
	}
	w.why = p.Startup.Setting + ", default"
	if v, ok := getenv(p.Startup.Setting); ok {
		if n, ok := jsParseInt(v); ok && n != 0 {
			return wait{d: time.Duration(n) * time.Millisecond, why: fmt.Sprintf("%s=%s", p.Startup.Setting, v)}
		}
	}
	return w
}

func (w wait) String() string {
	if w.why == "" {
		return w.d.String()
	}
	return fmt.Sprintf("%v (%s)", w.d, w.why)
}

// jsParseInt is JavaScript's parseInt(s, 10): leading white space, an
// optional sign, then as many decimal digits as there are; false when
// there are none (NaN).
func jsParseInt(s string) (int64, bool) {
	rs := []rune(s)
	i := 0
	for i < len(rs) && (unicode.IsSpace(rs[i]) || rs[i] == '\ufeff') {
		i++
	}
	neg := false
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-') {
		neg = rs[i] == '-'
		i++
	}
	var n int64
	digits := 0
	for ; i < len(rs) && rs[i] >= '0' && rs[i] <= '9'; i++ {
		if n < 1<<50 {
			n = n*10 + int64(rs[i]-'0')
		}
		digits++
	}
	if digits == 0 {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}
