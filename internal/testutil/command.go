package testutil

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
)

// Command returns c's command for r (its client dir made first) and the
// config file named file that it wrote in r's working folder.
func Command(t testing.TB, c client.Client, r *client.Run, file string) (*exec.Cmd, []byte) {
	t.Helper()
	if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd, err := c.Command(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(r.Work, file))
	if err != nil {
		t.Fatal(err)
	}
	return cmd, b
}
