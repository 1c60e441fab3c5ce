package surface

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// TestResourceReads: the lab's resource, read through each client's own
// resource tool (runs of the surface-resources row, 2026-12-04), reached
// the model whole in the tool's result, in the request after the read; a
// copy with the resource's text taken out of the requests reports it not
// reached, and the calls of the client's own tools are named as the
// client named them.
func TestResourceReads(t *testing.T) {
	text := "lab_readme text codeword: " + lab.SurfaceCodeword("", "lab_readme", "text") + "."
	for _, tc := range []struct {
		fixture string
		own     []string
		request int
	}{
		{"claude-code-2.1.332-resources", []string{"ListMcpResourcesTool", "ReadMcpResourceTool"}, 3},
		{"gemini-0.61.0-resources", []string{"list_mcp_resources", "read_mcp_resource"}, 3},
		{"qwen-0.24.4-resources", []string{"read_mcp_resource (through tool_call)"}, 3}, // deferred, called through its invoker
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			dir := filepath.Join("testdata", tc.fixture)
			reqs, log := load(t, dir, nil)
			if diff := cmp.Diff(tc.own, OwnCalls(reqs, log)); diff != "" {
				t.Errorf("own calls mismatch (-want +got):\n%s", diff)
			}
			reads := Reads(reqs, log)
			if len(reads) != 1 {
				t.Fatalf("reads %+v, want one", reads)
			}
			r := reads[0]
			if r.URI != labvocab.SurfaceResourceURI || !r.Reached || !r.Full || r.Where != "tool-result" || r.Request != tc.request {
				t.Errorf("read %+v, want %s whole in a tool result of request %d", r, labvocab.SurfaceResourceURI, tc.request)
			}
			removed, log2 := load(t, dir, func(s string) string {
				if !strings.Contains(s, text) {
					t.Fatalf("the fixture lacks %q", text)
				}
				return strings.ReplaceAll(s, text, "something else")
			})
			if got := Reads(removed, log2); len(got) != 1 || got[0].Reached {
				t.Errorf("with the resource's text taken out, reads %+v, want it not reached", got)
			}
		})
	}
}
