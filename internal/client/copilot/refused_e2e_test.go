package copilot

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/testutil"
)

// The releases below cannot be driven (docs/clients.md, Copilot CLI's
// section): each test reproduces why and fails the day the reason no
// longer holds.

func e2eLinux(t *testing.T) {
	t.Helper()
	if os.Getenv("INSTRLAB_E2E") != "1" || os.Getenv("INSTRLAB_E2E_RELEASES") != "1" {
		t.Skip("set INSTRLAB_E2E=1 INSTRLAB_E2E_RELEASES=1 to install Copilot CLI releases other than the pin from npm (each sweep of the atlas tries them too)")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the packages this test reads are linux-x64's")
	}
}

// TestE2EBelowFloorHasNoJSON reproduces why versions before 0.0.422 are
// refused (Floor): 0.0.409's executable, given the options and the
// provider variables a run gives, refuses --output-format and asks no
// model API. It fails the day it takes them.
func TestE2EBelowFloorHasNoJSON(t *testing.T) {
	e2eLinux(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	p := npm.Package{Client: Name, Version: "0.0.409", Name: Package}
	bin, err := npm.EnsureFile(ctx, p, io.Discard, "binary", "node_modules/@github/copilot-linux-x64/copilot")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	dir, _ := p.Dir()
	cache := filepath.Join(dir, "pkg-cache")
	if root, err := findUnpacked(cache, "linux-x64", p.Version); err == nil { // else it unpacks into home
		if _, err := pkgEnv(home, cache, root); err != nil {
			t.Fatal(err)
		}
	}
	b := testutil.StartBackend(t)
	env := []string{"COPILOT_OFFLINE=true", "COPILOT_AUTO_UPDATE=false", "COPILOT_PROVIDER_TYPE=openai",
		"COPILOT_PROVIDER_BASE_URL=" + b.URL + "/v1", "COPILOT_PROVIDER_API_KEY=dummy-key-for-a-stand-in", "COPILOT_MODEL=fake-model"}
	out, err := testutil.RunBare(t, home, env, bin, append([]string{"-p", "Reply with one word."}, flags(p.Version, filepath.Join(t.TempDir(), "logs"))...)...)
	calls := b.Calls()
	if err == nil {
		t.Fatalf("copilot@0.0.409 exited 0 with --output-format json: lower Floor and update docs/clients.md\n%s\ncalls: %q", out, calls)
	}
	if !strings.Contains(out, "unknown option '--output-format'") {
		t.Errorf("copilot@0.0.409 failed, but not on --output-format:\n%s", out)
	}
	if len(calls) > 0 {
		t.Errorf("copilot@0.0.409 called the provider: %q", calls)
	}
}

// TestE2ENoExecutable reproduces why the releases npm serves without an
// executable for linux-x64 cannot run here: 1.0.77's package holds only
// its loader, and 1.0.10's holds JavaScript that needs a newer Node.js
// than this machine's (Debian's 20). It fails the day npm serves their
// executables, or, for 1.0.10, the day PATH's node is new enough: then
// run it and update docs/clients.md.
func TestE2ENoExecutable(t *testing.T) {
	e2eLinux(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for v, want := range map[string]string{"1.0.77": "holds no index.js", "1.0.10": "runs on Node.js 24 or newer (its npm-loader.js); "} {
		err := New(v).Provision(ctx, io.Discard)
		if !errors.Is(err, ErrNoExecutable) || !strings.Contains(err.Error(), want) {
			t.Errorf("provisioning copilot@%s: %v, want ErrNoExecutable with %q", v, err, want)
		}
	}
}
