package runner

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
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

// TestUseLeavesOutLabArms: an arm whose settings name the lab's own tools
// (opencode's tools-denied denies lab_*) is not run with a user's server,
// which it would leave as the client's default while the tables named
// the arm; it is said on progress. The other arms stay, in their order.
func TestUseLeavesOutLabArms(t *testing.T) {
	us, err := ParseServers("--", "", []string{"srv", "--flag"})
	if err != nil {
		t.Fatal(err)
	}
	var progress strings.Builder
	r := &Runner{Progress: &progress, Arms: map[string][]client.Arm{
		"opencode@1": {{Name: "default", Default: true}, {Name: "tools-denied", Lab: true}, {Name: "timeout-1s"}},
		"codex@1":    {{Name: "default", Default: true}},
	}}
	cleanup, err := us.Use(r)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	var names []string
	for _, a := range r.Arms["opencode@1"] {
		names = append(names, a.Name)
	}
	if !slices.Equal(names, []string{"default", "timeout-1s"}) || len(r.Arms["codex@1"]) != 1 {
		t.Errorf("arms %v and %d of codex, want default, timeout-1s and 1", names, len(r.Arms["codex@1"]))
	}
	if !strings.Contains(progress.String(), "opencode@1's arm tools-denied is not run: its settings name the lab's own tools") {
		t.Errorf("progress %q does not say the arm is left out", progress.String())
	}
}
