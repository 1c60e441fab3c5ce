package matrix

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/lab"
)

var twoLabs = Row{Name: "servers", Label: "two", Instr: "ascii:1000", Servers: []LabServer{{Name: "beta"}, {Name: "alpha", Instr: "ascii:2000"}, {Name: "gamma"}}}

// TestLocateServers: a synthetic request holding the second server's text
// whole, then the first's cut at 300 characters, and nothing of the third:
// each server is found by its own codewords, kept of N, and ordered as in
// the request, not as in the config.
func TestLocateServers(t *testing.T) {
	beta, err := twoLabs.serverText(LabServer{Name: "beta", Instr: "ascii:1000"})
	if err != nil {
		t.Fatal(err)
	}
	alpha, err := twoLabs.serverText(LabServer{Name: "alpha", Instr: "ascii:2000"})
	if err != nil {
		t.Fatal(err)
	}
	cut := string([]rune(alpha[lab.EraInitialize])[:300])
	ctx := fakeapi.Context{
		{Kind: fakeapi.KindSystem, Path: "system[0]", Text: "You are a coding agent."},
		{Kind: fakeapi.KindSystem, Path: "system[1]", Text: "## alpha\n" + cut + "… [truncated]\n\n## beta\n" + beta[lab.EraInitialize]},
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
	gamma, err := twoLabs.serverText(LabServer{Name: "gamma", Instr: "ascii:1000"})
	if err != nil {
		t.Fatal(err)
	}
	if gamma[lab.EraInitialize] == beta[lab.EraInitialize] {
		t.Error("servers beta and gamma serve the same text")
	}
}

func TestLabServersConfig(t *testing.T) {
	files := evidence.RunDir(t.TempDir())
	got, err := labServers("/bin/instrlab", twoLabs, files)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	logs := map[string]bool{}
	for _, s := range got {
		names = append(names, s.Name)
		a, err := lab.ParseArgs(s.Args[len(lab.Subcommand):])
		if err != nil {
			t.Fatalf("server %s: %v", s.Name, err)
		}
		if a.Seed != s.Name {
			t.Errorf("server %s: -seed %q, want its name", s.Name, a.Seed)
		}
		logs[filepath.Base(a.Log)] = true
		if s.Name == "alpha" && a.Instr != "ascii:2000" {
			t.Errorf("server alpha: -instr %q, want its own ascii:2000", a.Instr)
		}
	}
	if diff := cmp.Diff([]string{"beta", "alpha", "gamma"}, names); diff != "" {
		t.Errorf("servers mismatch (-want +got):\n%s", diff)
	}
	if !logs[evidence.LabLogFile] || !logs["lab.alpha.jsonl"] || !logs["lab.gamma.jsonl"] {
		t.Errorf("logs %v: want lab.jsonl for the first and lab.NAME.jsonl for the others", logs)
	}
	var observed []string
	for _, s := range twoLabs.configNames() {
		observed = append(observed, s.Name)
	}
	if diff := cmp.Diff(names, observed); diff != "" {
		t.Errorf("the servers a client's observation is given mismatch (-want +got):\n%s", diff)
	}
	if got := (Row{Name: "one", Instr: "ascii:10"}).configNames(); len(got) != 1 || got[0].Name != ServerName {
		t.Errorf("a row of one lab: observation given %+v, want the lab alone", got)
	}
	if twoLabs.ServerName() != "beta" {
		t.Errorf("ServerName() = %q, want the first server's", twoLabs.ServerName())
	}
}

func TestValidateServers(t *testing.T) {
	for _, tc := range []struct {
		servers []LabServer
		server  string
		want    string
	}{
		{[]LabServer{{Name: "a"}}, "", "two or more"},
		{[]LabServer{{Name: "a"}, {Name: "a"}}, "", `two servers named "a"`},
		{[]LabServer{{Name: "a"}, {Name: "b c"}}, "", "name"},
		{[]LabServer{{Name: "a"}, {Name: ""}}, "", "name"},
		{[]LabServer{{Name: "a"}, {Name: "b", Instr: "ascii:x"}}, "", `server "b"`},
		{[]LabServer{{Name: "a"}, {Name: "b"}}, "mine", "drop server"},
	} {
		row := Row{Name: "r", Instr: "ascii:1000", Servers: tc.servers}
		if tc.server != "" {
			row.Instr, row.Server = "none", tc.server
		}
		m := &Matrix{Name: "m", Prompt: "p", Rows: []Row{row}}
		err := m.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("servers %+v: error %v, want one naming %q", tc.servers, err, tc.want)
		}
	}
	ok := &Matrix{Name: "m", Prompt: "p", Rows: []Row{twoLabs}}
	if err := ok.Validate(); err != nil {
		t.Errorf("three servers: %v", err)
	}
}
