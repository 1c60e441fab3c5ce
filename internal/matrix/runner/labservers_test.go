package runner

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/lab"
)

var twoLabs = matrix.Row{Name: "servers", Label: "two", Args: lab.Args{Instr: "ascii:1000"}, Servers: []matrix.LabServer{{Name: "beta"}, {Name: "alpha", Instr: "ascii:2000"}, {Name: "gamma"}}}

func TestLabServersConfig(t *testing.T) {
	files := evidence.RunDir(t.TempDir())
	got := labServers("/bin/instrlab", twoLabs, files)
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
	if diff := cmp.Diff(names, twoLabs.ConfigNames()); diff != "" {
		t.Errorf("the servers a client's observation is given mismatch (-want +got):\n%s", diff)
	}
	if got := (matrix.Row{Name: "one", Args: lab.Args{Instr: "ascii:10"}}).ConfigNames(); len(got) != 1 || got[0] != matrix.ServerName {
		t.Errorf("a row of one lab: observation given %+v, want the lab alone", got)
	}
	if twoLabs.ServerName() != "beta" {
		t.Errorf("ServerName() = %q, want the first server's", twoLabs.ServerName())
	}
}
