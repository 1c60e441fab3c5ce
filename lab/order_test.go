package lab

import (
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestToolOrderRotate: with -tool-order rotate the n-th tools/list of the
// process moves the first n tools, in name order, to the end, whatever
// the connection; by default every listing is in name order.
func TestToolOrderRotate(t *testing.T) {
	byName := []string{"lab_ping", "list_bins", "lookup_part", "tool_0004"}
	for _, tt := range []struct {
		order string
		want  [][]string
	}{
		{OrderName, [][]string{byName, byName, byName}},
		{OrderRotate, [][]string{
			{"list_bins", "lookup_part", "tool_0004", "lab_ping"},
			{"lookup_part", "tool_0004", "lab_ping", "list_bins"},
			{"tool_0004", "lab_ping", "list_bins", "lookup_part"},
			byName,
			{"list_bins", "lookup_part", "tool_0004", "lab_ping"},
		}},
	} {
		p := startPipeServer(t, Config{ToolOrder: tt.order, Surface: SurfaceConfig{Count: 4}})
		io.WriteString(p.in, initialize+"\n")
		p.next(5 * time.Second)
		io.WriteString(p.in, initialized+"\n")
		var got [][]string
		for range tt.want {
			io.WriteString(p.in, toolsList+"\n")
			got = append(got, toolNames(t, p.next(5*time.Second)))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("-tool-order %s: listings mismatch (-want +got):\n%s", tt.order, diff)
		}
	}
}

// toolNames are the names of a tools/list reply's tools, in order.
func toolNames(t *testing.T, line string) []string {
	t.Helper()
	var m struct {
		Result struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil || !strings.Contains(line, `"tools"`) {
		t.Fatalf("not a tools/list reply: %.200q", line)
	}
	var names []string
	for _, x := range m.Result.Tools {
		names = append(names, x.Name)
	}
	return names
}
