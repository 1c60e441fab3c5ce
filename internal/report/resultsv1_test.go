package report

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/lab"
)

// TestOpenResultsV1: a results.json of schema v1, whose era keys held the
// lab's eras and each placement's reply, reads as v2 does (its fixture,
// written 2026-12-02, against a v2 run of the same rows on the same client
// written 2026-12-06): every result's eras and every placement's reply
// are read, and diff finds no change between the two.
func TestOpenResultsV1(t *testing.T) {
	const v1, v2 = "../../schema/testdata/results.json", "../../schema/testdata/results-v2.json"
	b, err := os.ReadFile(v1)
	if err != nil {
		t.Fatal(err)
	}
	var f ResultsFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	placements := 0
	for _, r := range f.Results {
		if r.Eras != lab.ModeLegacy {
			t.Errorf("%s: eras %q, want legacy (v1's era)", r.Dir, r.Eras)
		}
		if r.Observation.Era == "" {
			t.Errorf("%s: no era in the observation (v1's protocol_era)", r.Dir)
		}
		all := r.Transcript
		for _, req := range r.Requests {
			all = append(all, req.Placements...)
		}
		for _, p := range all {
			placements++
			if p.Reply != lab.ReplyInitialize {
				t.Errorf("%s: a placement's reply %q, want initialize (v1's era)", r.Dir, p.Reply)
			}
		}
	}
	if len(f.Results) != 4 || placements == 0 {
		t.Fatalf("read %d results, %d placements; want 4 results with placements", len(f.Results), placements)
	}
	var reps [2]*Report
	for i, path := range []string{v1, v2} {
		if reps[i], _, err = Open(t.Context(), clients.New, path); err != nil {
			t.Fatal(err)
		}
	}
	d := Compare(reps[0], reps[1], DiffOptions{Tolerance: 0.1})
	if len(d.Changes) != 0 || len(d.Rows) != 2 || len(d.Incomparable) != 0 {
		t.Errorf("diff v1 v2: %d changes %+v, rows %q, incomparable %q; want none in 2 rows", len(d.Changes), d.Changes, d.Rows, d.Incomparable)
	}
}
