package npm

import (
	"strings"
	"testing"
	"testing/fstest"
)

const hostLock = `{"lockfileVersion": 3, "packages": {
  "": {"dependencies": {"x": "1.0.0", "y": "2.0.0"}},
  "node_modules/x": {"version": "1.0.0", "resolved": "https://registry.npmjs.org/x/-/x-1.0.0.tgz", "integrity": "sha512-aaaa"},
  "node_modules/y": {"version": "2.0.0", "resolved": "https://registry.npmjs.org/y/-/y-2.0.0.tgz", "integrity": "sha512-bbbb"}}}`

func testHost(pj, lock string) Host {
	return Host{Client: "x-host", Package: "x", Script: "host.mjs", Files: fstest.MapFS{
		"package.json":      {Data: []byte(pj)},
		"package-lock.json": {Data: []byte(lock)},
		"host.mjs":          {Data: []byte("console.log(1)\n")},
	}}
}

const hostPJ = `{"dependencies": {"x": "1.0.0", "y": "2.0.0"}}`

// TestHostCheck: a host's package.json names exact versions, Package
// among them; its lock's root depends on exactly those, locks them, and
// has an integrity hash for every fetched package.
func TestHostCheck(t *testing.T) {
	h := testHost(hostPJ, hostLock)
	if err := h.Check(); err != nil {
		t.Fatalf("a good host: %v", err)
	}
	if pin, err := h.Pin(); err != nil || pin != "1.0.0" {
		t.Errorf("Pin = %q, %v", pin, err)
	}
	for _, tt := range []struct{ name, pj, lock, want string }{
		{"a range", strings.Replace(hostPJ, `"2.0.0"`, `"^2.0.0"`, 1), hostLock, `y is "^2.0.0", want an exact version`},
		{"no Package", `{"dependencies": {"y": "2.0.0"}}`, hostLock, "does not depend on x"},
		{"not JSON", `{`, hostLock, "package.json"},
		{"a lock of another tree", strings.Replace(hostPJ, `"y": "2.0.0"`, `"y": "2.0.1"`, 1), hostLock, "its root depends on"},
		{"a lock that locks another version", hostPJ, strings.Replace(hostLock, `"version": "2.0.0"`, `"version": "2.0.1"`, 1), `it locks y at "2.0.1"`},
		{"no integrity", hostPJ, strings.Replace(hostLock, `"sha512-bbbb"`, `""`, 1), "node_modules/y has no sha512 integrity"},
	} {
		if err := testHost(tt.pj, tt.lock).Check(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
	noScript := testHost(hostPJ, hostLock)
	delete(noScript.Files.(fstest.MapFS), "host.mjs")
	if err := noScript.Check(); err == nil || !strings.Contains(err.Error(), "host.mjs") {
		t.Errorf("no script: %v", err)
	}
}
