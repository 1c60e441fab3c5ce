package probe

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestProbeToolOrder: each era lists the tools twice on its connection; a
// lab that lists them in a new order every time (-tool-order rotate) is
// caught with the second listing's order, and a lab that lists them by
// name is not.
func TestProbeToolOrder(t *testing.T) {
	type orders struct{ Legacy, LegacyAgain, Modern, ModernAgain []string }
	first := []string{"list_bins", "lookup_part", "lab_ping"}  // listing 1 of the process
	second := []string{"lookup_part", "lab_ping", "list_bins"} // listing 2
	byName := []string{"lab_ping", "list_bins", "lookup_part"}
	for _, tt := range []struct {
		args string
		want orders
	}{
		{"-eras legacy,modern -tool-order rotate", orders{first, second, first, second}},
		{"-eras legacy,modern", orders{byName, nil, byName, nil}},
	} {
		r := Probe(context.Background(), testServer(t, tt.args), quick)
		got := orders{toolNames(r.Legacy.Tools), r.Legacy.Relisted, toolNames(r.Modern.Tools), r.Modern.Relisted}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: listings mismatch (-want +got):\n%s\nlegacy: %s %s\nmodern: %s %s", tt.args, diff,
				r.Legacy.Detail, r.Legacy.ToolsError, r.Modern.Detail, r.Modern.ToolsError)
		}
	}
}
