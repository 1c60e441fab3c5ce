package clients

import (
	"os"
	"testing"

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
	// npm's last lines: "Installation failed: Request failed: getaddrinfo
	// ENOTFOUND github.com" from the package's install script.
	installFails(t, npm.Package{Client: "crush", Version: "0.96.1", Name: "@charmland/crush"},
		"Crush may now run offline; add it as a client", "Installation failed: Request failed", "github.com")
}
