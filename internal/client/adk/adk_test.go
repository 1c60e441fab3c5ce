package adk

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestObserveRealRun reads the host's output of a real run over HTTP
// (instrlab run -client adk -matrix cross -row http-dual, 2026-12-06):
// the host's JSON lines alone (it gives ADK a logger on stderr), the
// server connected, the answer the fake gave.
func TestObserveRealRun(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "http-dual"), map[string]string{"stdout.txt": "client/stdout.txt"})
	o := New("").Observe(client.Evidence{Dir: dir, Servers: []string{"lab"}})
	got := []string{o.ServerStatus, o.Answer, o.Model, o.ResultError}
	if diff := cmp.Diff([]string{"connected", "BEGIN=NONE END=NONE LAST=NONE", "gemini-flash-latest", ""}, got); diff != "" {
		t.Errorf("Observe mismatch (-want +got):\n%s", diff)
	}
	if len(o.Warnings) > 0 || !slices.Equal(o.Files, []string{"client/stdout.txt"}) {
		t.Errorf("warnings %v files %v", o.Warnings, o.Files)
	}
}
