package clients

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/client/npm"
)

// TestE2ECrushCannotInstall reproduces why Crush has no row (see
// docs/clients.md): the npm package @charmland/crush@0.96.1 holds no
// binary, and its postinstall downloads one from the project's GitHub
// releases, which a machine that reaches only the package registries
// cannot fetch. It fails if the install ever succeeds, or fails for
// another reason.
func TestE2ECrushCannotInstall(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to try installing Crush from npm")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err := npm.Ensure(ctx, npm.Package{Client: "crush", Version: "0.96.1", Name: "@charmland/crush"}, io.Discard)
	if err == nil {
		t.Fatal("@charmland/crush@0.96.1 installed: Crush may now run offline; add it as a client and update docs/clients.md")
	}
	msg := err.Error()
	// npm's last lines: "Installation failed: Request failed: getaddrinfo
	// ENOTFOUND github.com" from the package's install script.
	if !strings.Contains(msg, "Installation failed: Request failed") || !strings.Contains(msg, "github.com") {
		t.Errorf("the install failed, but not on the release download:\n%s", msg)
	}
}
