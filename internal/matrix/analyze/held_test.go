package analyze

import (
	"testing"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/lab"
)

// TestHeldUnanswered: a held server row whose session ended before the
// proxy passed the reply on is the hold's doing; a row not held, or a
// reply passed on, is not.
func TestHeldUnanswered(t *testing.T) {
	asked := []LabMessage{{Dir: lab.Recv, Kind: lab.KindRequest, Method: "initialize"}}
	answered := append(asked, LabMessage{Dir: lab.Send, Kind: lab.KindResponse, Method: "initialize"})
	held := matrix.Row{Name: "s-held8s", Instr: "none", Server: "s", InitDelay: "8s"}
	for _, tc := range []struct {
		row  matrix.Row
		msgs []LabMessage
		want bool
	}{
		{held, asked, true},
		{held, answered, false},
		{matrix.Row{Name: "s", Instr: "none", Server: "s"}, asked, false},
		{matrix.Row{Name: "lab", Instr: "ascii:10", InitDelay: "8s"}, asked, false},
	} {
		if got := heldUnanswered(tc.row, tc.msgs); got != tc.want {
			t.Errorf("row %s, %d messages: %v, want %v", tc.row.Name, len(tc.msgs), got, tc.want)
		}
	}
}
