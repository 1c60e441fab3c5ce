package stderr

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLines(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"empty", "\n \n", nil},
		{"one line", "segfault at 0\n", []string{"segfault at 0"}},
		{"usage first, complaint last", "Usage: srv [options]\n  --port N\n  --root DIR\n  --verbose\n  --quiet\nError: unknown option --x\n",
			[]string{"Error: unknown option --x"}},
		{"no error word: the first lines and the last", "starting\nloading a\nloading b\nloading c\nloading d\nbye\n",
			[]string{"starting", "loading a", "loading b", "… 2 more …", "bye"}},
		{"node cannot find module", `node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/tmp/x/build/index.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
`, []string{"Error: Cannot find module '/tmp/x/build/index.js'", "code: 'MODULE_NOT_FOUND',", "requireStack: []", "… 1 more …", "Node.js v20.20.2"}},
		{"python traceback", `Traceback (most recent call last):
  File "/srv/server.py", line 3, in <module>
    import foo
ModuleNotFoundError: No module named 'foo'
`, []string{"ModuleNotFoundError: No module named 'foo'"}},
		{"the last line right after", "Invalid values:\n  Argument: output-format\nUsage: qwen [options]\n",
			[]string{"Invalid values:", "Argument: output-format", "Usage: qwen [options]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Lines(tt.text)); diff != "" {
				t.Errorf("Lines mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLinesClipped: a long line is cut, and the reason stays short.
func TestLinesClipped(t *testing.T) {
	got := Quote("Error: " + strings.Repeat("x", 1000))
	if n := len([]rune(got)); n != lineRunes+1 {
		t.Errorf("a 1,007-character line quoted in %d characters, want %d", n, lineRunes+1)
	}
}

func FuzzLines(f *testing.F) {
	f.Add("Error: x\n  at f (a.js:1:2)\nbye")
	f.Add("\xff\n^\n")
	f.Fuzz(func(t *testing.T, s string) {
		lines := Lines(s)
		if len(lines) > First+2 {
			t.Fatalf("%d lines, at most %d", len(lines), First+2)
		}
		for _, l := range lines {
			if l == "" || strings.Contains(l, "\n") {
				t.Fatalf("line %q: empty or with a line break", l)
			}
		}
	})
}
