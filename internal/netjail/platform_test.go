package netjail

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestNoNamespaces runs the exported entry points on the platform every OS
// but Linux gets (platform_other.go sets host to noNamespaces): each
// returns ErrNotLinux, which wraps ErrUnsupported, and Main starts nothing.
// On Linux this swaps host for the test; it proves what noNamespaces does,
// not that platform_other.go selects it (the cross-compiled vet in CI and
// TestHostOffLinux, which runs off Linux, cover that).
func TestNoNamespaces(t *testing.T) {
	saved := host
	host = noNamespaces
	t.Cleanup(func() { host = saved })

	if err := Supported(); !errors.Is(err, ErrNotLinux) || !errors.Is(err, ErrUnsupported) {
		t.Errorf("Supported() = %v, want ErrNotLinux wrapping ErrUnsupported", err)
	}
	cmd, err := Wrap(context.Background(), exec.Command("true"), Options{Self: "instrlab"})
	if cmd != nil || !errors.Is(err, ErrNotLinux) {
		t.Errorf("Wrap() = %v, %v; want nil, ErrNotLinux", cmd, err)
	}
	dir := t.TempDir()
	var stderr bytes.Buffer
	args := Options{Forwards: []Forward{{"127.0.0.1:1", filepath.Join(dir, "s")}}, Log: filepath.Join(dir, "dns.jsonl"), Dir: dir}.
		Args([]string{"true"})
	code, err := Main(args[1:], &stderr)
	if code != 1 || !errors.Is(err, ErrNotLinux) {
		t.Errorf("Main() = %d, %v; want 1, ErrNotLinux", code, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "dns.jsonl")); err == nil {
		t.Error("Main went on to open the resolver log although it could not isolate")
	}
	if want := runtime.GOOS + " has no network namespaces, so runs here are not network-isolated"; !bytes.Contains([]byte(ErrNotLinux.Error()), []byte(want)) {
		t.Errorf("ErrNotLinux = %q, want it to say %q", ErrNotLinux, want)
	}
}
