package analyze

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/lab"
)

var twoLabs = matrix.Row{Name: "servers", Label: "two", Args: lab.Args{Instr: "ascii:1000"}, Servers: []matrix.LabServer{{Name: "beta"}, {Name: "alpha", Instr: "ascii:2000"}, {Name: "gamma"}}}

// TestLocateServers: a synthetic request holding the second server's text
// whole, then the first's cut at 300 characters, and nothing of the third:
// each server is found by its own codewords, kept of N, and ordered as in
// the request, not as in the config.
func TestLocateServers(t *testing.T) {
	beta, err := labServerText(matrix.LabServer{Name: "beta", Instr: "ascii:1000"})
	if err != nil {
		t.Fatal(err)
	}
	alpha, err := labServerText(matrix.LabServer{Name: "alpha", Instr: "ascii:2000"})
	if err != nil {
		t.Fatal(err)
	}
	cut := string([]rune(alpha[lab.ReplyInitialize])[:300])
	ctx := fakeapi.Context{
		{Kind: fakeapi.KindSystem, Path: "system[0]", Text: "You are a coding agent."},
		{Kind: fakeapi.KindSystem, Path: "system[1]", Text: "## alpha\n" + cut + "… [truncated]\n\n## beta\n" + beta[lab.ReplyInitialize]},
	}
	got, warns := locateServers(twoLabs, ctx)
	if len(warns) > 0 {
		t.Errorf("warnings: %q", warns)
	}
	type short struct {
		Name              string
		Sent, Kept, Order int
		Full              bool
	}
	var gotShort []short
	for _, s := range got {
		full := len(s.Placements) > 0 && s.Placements[0].Full
		gotShort = append(gotShort, short{s.Name, s.Sent, s.Kept, s.Order, full})
	}
	want := []short{{"beta", 1000, 1000, 2, true}, {"alpha", 2000, 300, 1, false}, {"gamma", 1000, 0, 0, false}}
	if diff := cmp.Diff(want, gotShort); diff != "" {
		t.Errorf("servers mismatch (-want +got):\n%s", diff)
	}
	if p := got[1].Placements; len(p) != 1 || p[0].Path != "system[1]" || !strings.HasPrefix(p[0].Suffix, TruncationSuffix) {
		t.Errorf("alpha's placements = %+v, want one in system[1] ending in the truncation mark", p)
	}
	// One server's text is not another's: same kind and length, other
	// codewords.
	gamma, err := labServerText(matrix.LabServer{Name: "gamma", Instr: "ascii:1000"})
	if err != nil {
		t.Fatal(err)
	}
	if gamma[lab.ReplyInitialize] == beta[lab.ReplyInitialize] {
		t.Error("servers beta and gamma serve the same text")
	}
}
