package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/lab"
)

func armedClient(version string) client.Client {
	c := fakeClient(version, nil)
	c.ArmList = []client.Arm{
		{Name: "wide", Default: true},
		{Name: "narrow", Env: map[string]string{"FAKE_CAP": "500"}},
	}
	return c
}

func TestRunnerRunsEachArm(t *testing.T) {
	m := testMatrix(matrix.Row{Name: "en-5000", Label: "5,000", Args: lab.Args{Instr: "ascii:5000"}})
	m.Repeats = 1
	c := armedClient("1")
	r := newRunner(t, m, c)
	arms, err := m.PickArms([]client.Client{c}, []string{"all"})
	if err != nil {
		t.Fatal(err)
	}
	r.Arms = arms
	results, st, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 0 || len(results) != 2 {
		t.Fatalf("stats %+v, %d results", st, len(results))
	}
	type got struct {
		Who, Dir, How string
		Kept          int
	}
	var gots []got
	for _, res := range results {
		rel, _ := filepath.Rel(r.Out, res.Dir)
		gots = append(gots, got{Who: res.Who(), Dir: filepath.ToSlash(rel), How: res.Arm.How, Kept: res.First.Best().Kept})
		rec, err := analyze.ReadRecord(res.Dir)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Arm.Name != res.Arm.Name {
			t.Errorf("%s: record's arm %q, result's %q", res.Dir, rec.Arm.Name, res.Arm.Name)
		}
	}
	want := []got{
		{Who: "fake@1", Dir: "fake@1/en-5000/1", How: "nothing set", Kept: 2048},
		{Who: "fake@1 [arm narrow]", Dir: "fake@1~narrow/en-5000/1", How: "env FAKE_CAP=500", Kept: 500},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	// A run whose record cannot be read is still placed in its arm.
	dir := evidence.OutDir(r.Out).Run(evidence.ArmClient("fake@1", "narrow", false), "en-5000", 1)
	u := analyze.Unreadable(string(dir), "fake@1~narrow", "en-5000", 1, os.ErrInvalid)
	if u.Who() != "fake@1 [arm narrow]" {
		t.Errorf("unreadable run placed in %q", u.Who())
	}
}
