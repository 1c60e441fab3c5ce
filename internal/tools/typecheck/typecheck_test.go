package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// module is a module whose windows file returns the wrong type and whose
// darwin test calls a function only linux has: go vet with GOOS set would
// fail there, and so must check, while linux is clean.
var module = map[string]string{
	"go.mod":           "module example.com/m\n\ngo 1.26\n",
	"m.go":             "package m\n\nimport \"strings\"\n\nfunc F() int { return g() + len(strings.Fields(\"a b\")) }\n",
	"g_linux.go":       "package m\n\nfunc g() int { return 1 }\n\nfunc onlyLinux() int { return 2 }\n",
	"g_darwin.go":      "package m\n\nfunc g() int { return 3 }\n",
	"g_windows.go":     "package m\n\nfunc g() string { return \"4\" }\n",
	"m_test.go":        "package m\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { _ = F() }\n",
	"m_darwin_test.go": "package m\n\nimport \"testing\"\n\nfunc TestOnly(t *testing.T) { _ = onlyLinux() }\n",
	"sub/sub.go":       "package sub\n\nimport \"example.com/m\"\n\nvar X int = m.F()\n",
}

func TestCheckFindsWhatOnlyOneSystemSees(t *testing.T) {
	dir := t.TempDir()
	for name, text := range module {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	where := regexp.MustCompile(`([a-z_]+\.go):(\d+):\d+`)
	for _, tc := range []struct {
		goos   string
		module int      // package variants checked in full
		want   []string // file:line of each error
	}{
		{"linux", 3, nil},
		{"darwin", 3, []string{"m_darwin_test.go:5"}},
		{"windows", 3, []string{"m.go:5"}},
	} {
		res, err := check(dir, tc.goos, "amd64", []string{"./..."})
		if err != nil {
			t.Fatalf("%s: %v", tc.goos, err)
		}
		var got []string
		for _, e := range res.errors {
			m := where.FindStringSubmatch(e)
			if m == nil {
				t.Errorf("%s: an error without a position: %s", tc.goos, e)
				continue
			}
			got = append(got, m[1]+":"+m[2])
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: errors mismatch (-want +got):\n%s\n%q", tc.goos, diff, res.errors)
		}
		// m, m with its tests, and sub; the standard library only for
		// declarations.
		if res.module != tc.module || res.deps == 0 {
			t.Errorf("%s: checked %d packages of the module and %d dependencies, want %d and some", tc.goos, res.module, res.deps, tc.module)
		}
	}
}
