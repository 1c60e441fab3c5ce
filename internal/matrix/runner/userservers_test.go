package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// TestUserServersRedacted: a value the user gave a server (a config's env
// value, a ${VAR} it expanded, a credential argument, a URL's query
// value) that the server echoed into what the run recorded is hidden in
// the results run prints and writes; nothing else changes, and a run
// without such values gives its results back as they are. On main
// results.json kept echoed config env values.
func TestUserServersRedacted(t *testing.T) {
	t.Setenv("TENANT", "tenant-from-env-77")
	cfg := filepath.Join(t.TempDir(), ".mcp.json")
	os.WriteFile(cfg, []byte(`{"mcpServers": {
	  "db": {"command": "srv", "args": ["--api-key", "argkey-123456", "${TENANT}"], "env": {"DB_HOST": "db-host-secret-1"}},
	  "web": {"url": "http://127.0.0.1:9/mcp?tenant=query-secret-9"}}}`), 0o644)
	us, err := ParseServers("", cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := []analyze.Result{{Client: "c@1", Row: "r", Status: "failed",
		Reason: "server: connecting to db-host-secret-1 as tenant-from-env-77 with argkey-123456 and query-secret-9 failed"}}
	got := us.Redacted(in)
	if want := "server: connecting to *** as *** with *** and *** failed"; got[0].Reason != want || got[0].Client != "c@1" {
		t.Errorf("Redacted reason %q, want %q", got[0].Reason, want)
	}
	if !strings.Contains(in[0].Reason, "db-host-secret-1") {
		t.Error("Redacted changed its input")
	}
	var none *UserServers
	if out := none.Redacted(in); &out[0] != &in[0] {
		t.Error("a run without user servers copied its results")
	}
}
