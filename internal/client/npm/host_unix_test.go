//go:build unix

package npm

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// fakeHostNPM puts on PATH a node and an npm that logs each install to
// calls and installs every dependency the prefix's package.json names
// (written compact by Ensure) at its version.
func fakeHostNPM(t *testing.T) (calls string) {
	t.Helper()
	bin := t.TempDir()
	calls = filepath.Join(bin, "calls")
	script := `#!/bin/sh
prefix=$3
echo "$*" >> ` + calls + `
deps=$(sed -n 's/.*"dependencies":{\([^}]*\)}.*/\1/p' "$prefix/package.json" | tr ',' ' ')
for d in $deps; do
  name=$(echo "$d" | cut -d'"' -f2); version=$(echo "$d" | cut -d'"' -f4)
  mkdir -p "$prefix/node_modules/$name"
  printf '{"name":"%s","version":"%s"}' "$name" "$version" > "$prefix/node_modules/$name/package.json"
done
`
	for name, body := range map[string]string{"npm": script, "node": "#!/bin/sh\n"} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	return calls
}

// TestHostEnsure: the pinned version installs from the host's lock, once;
// another version from its package.json with Package moved, no lock; the
// script is written under a name of its content's hash, so a changed host
// runs its new code on the same install.
func TestHostEnsure(t *testing.T) {
	calls := fakeHostNPM(t)
	h := testHost(hostPJ, hostLock)
	node, script, err := h.Ensure(context.Background(), "1.0.0", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(script)
	if filepath.Base(dir) != "x-host@1.0.0" || !strings.HasPrefix(filepath.Base(script), "host-") || filepath.Ext(script) != ".mjs" || filepath.Base(node) != "node" {
		t.Errorf("node %s, script %s", node, script)
	}
	if b, _ := os.ReadFile(script); string(b) != "console.log(1)\n" {
		t.Errorf("script holds %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "package-lock.json")); string(b) != hostLock {
		t.Errorf("the pinned install has no lock of the host's: %s", b)
	}
	if log, _ := os.ReadFile(calls); !strings.Contains(string(log), "--ignore-scripts") {
		t.Errorf("npm ran %q, want no install script", log)
	}
	if _, again, err := h.Ensure(context.Background(), "1.0.0", io.Discard); err != nil || again != script {
		t.Errorf("again: %s, %v", again, err)
	}
	if n := countLines(t, calls); n != 1 {
		t.Errorf("npm ran %d times for one version, want 1", n)
	}

	_, other, err := h.Ensure(context.Background(), "1.1.0", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	odir := filepath.Dir(other)
	if _, err := os.Stat(filepath.Join(odir, "package-lock.json")); err == nil {
		t.Error("another version installed with the pinned lock")
	}
	if Installed(odir, "x") != "1.1.0" || Installed(odir, "y") != "2.0.0" {
		t.Errorf("installed x %q y %q, want 1.1.0 and the host's 2.0.0", Installed(odir, "x"), Installed(odir, "y"))
	}

	h.Files.(fstest.MapFS)["host.mjs"] = &fstest.MapFile{Data: []byte("console.log(2)\n")}
	_, changed, err := h.Ensure(context.Background(), "1.0.0", io.Discard)
	if err != nil || changed == script || filepath.Dir(changed) != dir {
		t.Errorf("a changed host: %s, %v (was %s)", changed, err, script)
	}
	if n := countLines(t, calls); n != 2 {
		t.Errorf("npm ran %d times, want 2 (a changed script needs no install)", n)
	}
}
