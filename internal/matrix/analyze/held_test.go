package analyze

import (
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/lab"
)

// TestHeldUnanswered: a held server row whose session ended before the
// proxy passed the reply on is the hold's doing; a row not held, or a
// reply passed on, is not.
func TestHeldUnanswered(t *testing.T) {
	asked := []LabMessage{{Dir: lab.Recv, Kind: lab.KindRequest, Method: "initialize"}}
	answered := append(asked, LabMessage{Dir: lab.Send, Kind: lab.KindResponse, Method: "initialize"})
	held := matrix.Row{Name: "s-held8s", Args: lab.Args{Instr: "none", InitDelay: 8 * time.Second}, Server: "s"}
	for _, tc := range []struct {
		row  matrix.Row
		msgs []LabMessage
		want bool
	}{
		{held, asked, true},
		{held, answered, false},
		{matrix.Row{Name: "s", Args: lab.Args{Instr: "none"}, Server: "s"}, asked, false},
		{matrix.Row{Name: "lab", Args: lab.Args{Instr: "ascii:10", InitDelay: 8 * time.Second}}, asked, false},
	} {
		if got := heldUnanswered(tc.row, tc.msgs); got != tc.want {
			t.Errorf("row %s, %d messages: %v, want %v", tc.row.Name, len(tc.msgs), got, tc.want)
		}
	}
}
