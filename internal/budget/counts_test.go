package budget

import (
	"context"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/unit"
)

// TestCounts: a search of astral text (here 9 in 10 characters outside
// the BMP, as the lab's emoji filler with its spaces) at the edge of a
// budget of 1,000 ASCII characters tells what a client counts; a client
// whose astral edge fits none of them (tokens) leaves it not measured,
// with the sizes either side; a failed run, too.
func TestCounts(t *testing.T) {
	size := func(n int) sentSize { return sentSize{cp: n, utf16: n + n*9/10, bytes: n + n*9/10*3} }
	client := func(u unit.Unit, limit int) func(context.Context, int) (Outcome, sentSize) {
		return func(_ context.Context, n int) (Outcome, sentSize) {
			s := size(n)
			return Outcome{Value: float64(n), Within: s.in(u) <= limit}, s
		}
	}
	for _, tc := range []struct {
		name string
		at   func(context.Context, int) (Outcome, sentSize)
		want unit.Unit
		note string
	}{
		{"code points", client(unit.CodePoint, 1000), unit.CodePoint, "ASCII whole at 1,000 characters; astral text whole at 1,000 code points"},
		{"UTF-16 units", client(unit.UTF16, 1000), unit.UTF16, "whole at 526 code points, 999 UTF-16 units"},
		{"bytes", client(unit.Byte, 1000), unit.Byte, "cut at"},
		{"tokens: none fits", func(_ context.Context, n int) (Outcome, sentSize) {
			return Outcome{Value: float64(n), Within: n <= 600}, size(n)
		}, "", "not code points, UTF-16 units or bytes"},
		{"a run fails", func(_ context.Context, n int) (Outcome, sentSize) {
			return Outcome{Value: float64(n), Failed: "timed out"}, sentSize{}
		}, "", "not measured: a run of astral text failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, note, f := counts(context.Background(), 1000, nil, tc.at)
			if u != tc.want || !strings.Contains(note, tc.note) {
				t.Errorf("counts = %q, %q (%d runs), want %q, %q", u, note, len(f.Steps), tc.want, tc.note)
			}
			// A neighbouring version's search of the same edge, read back
			// from its runs (Measurement.countFound) as a sweep keeps it,
			// makes the same finding in at most two runs.
			prev, ok := Measurement{CountSteps: f.Steps}.countFound()
			if f.Failed != "" {
				if ok {
					t.Errorf("countFound of failed runs = %+v, want nothing", prev)
				}
				return
			}
			u2, note2, f2 := counts(context.Background(), 1000, []Found{prev}, tc.at)
			if u2 != u || note2 != note || f2.Within != f.Within || f2.Past != f.Past || len(f2.Steps) > 2 {
				t.Errorf("from its neighbour: %q, %q in %d runs, want %q, %q in at most 2", u2, note2, len(f2.Steps), u, note)
			}
		})
	}
}
