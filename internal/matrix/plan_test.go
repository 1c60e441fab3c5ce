package matrix

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/lab"
)

func newClients(t *testing.T, specs ...string) []client.Client {
	t.Helper()
	var cs []client.Client
	for _, s := range specs {
		c, err := clients.New(s)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

func TestFor(t *testing.T) {
	tests := []struct {
		specs []string
		want  string
	}{
		{[]string{"claude-code"}, "seed"},
		{[]string{"claude-code@2.1.285", "claude-code"}, "seed"},
		{[]string{"codex"}, "cross"},
		{[]string{"claude-code", "qwen"}, "cross"},
	}
	for _, tt := range tests {
		if got := For(newClients(t, tt.specs...), clients.Default).Name; got != tt.want {
			t.Errorf("For(%q) = %s, want %s", tt.specs, got, tt.want)
		}
	}
}

func TestSelect(t *testing.T) {
	names := func(m *Matrix) []string {
		var out []string
		for _, r := range m.Rows {
			out = append(out, r.Name)
		}
		return out
	}
	m := Cross()
	all := names(m)
	if err := m.Select(nil, 0); err != nil || !cmp.Equal(names(m), all) {
		t.Fatalf("Select(nil, 0): %v, rows %q, want all rows", err, names(m))
	}
	if err := m.Select([]string{"en-6000", "en-1000"}, 3); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"en-6000", "en-1000"}, names(m)); diff != "" {
		t.Errorf("rows mismatch (-want +got):\n%s", diff)
	}
	if m.Repeats != 3 || m.Resolved(m.Rows[0]).Repeats != 3 {
		t.Errorf("repeats %d, row resolves to %d; want 3", m.Repeats, m.Resolved(m.Rows[0]).Repeats)
	}
	if err := m.Select([]string{"no-such-row"}, 0); err == nil {
		t.Error("Select accepted a row the matrix does not have")
	} else if len(m.Rows) != 2 {
		t.Errorf("a failed Select changed the rows: %q", names(m))
	}

	s := Seed()
	s.Baseline = s.Rows[0].Name
	if err := s.Select([]string{s.Rows[1].Name}, 0); err != nil {
		t.Fatal(err)
	}
	if s.Baseline != "" {
		t.Errorf("baseline %q kept though its row was not selected", s.Baseline)
	}
}

func TestPlannedRequests(t *testing.T) {
	m := &Matrix{Name: "t", Prompt: "p", Repeats: 2, MaxTurns: 3, Rows: []Row{
		{Name: "a", Args: lab.Args{Instr: "none"}},                             // 2 × 3 per client
		{Name: "b", Args: lab.Args{Instr: "none"}, Repeats: 1, MaxTurns: -1},   // 1 × 1 per client
		{Name: "c", Args: lab.Args{Instr: "none"}, Clients: []string{"codex"}}, // codex only: 2 × 3
	}}
	cs := newClients(t, "claude-code", "codex")
	if got, want := m.PlannedRequests(cs), (6+1)*2+6; got != want {
		t.Errorf("PlannedRequests = %d, want %d", got, want)
	}
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	m := Seed()
	path := filepath.Join(dir, "matrix.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := Load(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(m)
	b, _ := json.Marshal(back)
	if diff := cmp.Diff(string(a), string(b)); diff != "" {
		t.Errorf("matrix read back mismatch (-want +got):\n%s", diff)
	}
	if err := m.Save(filepath.Join(dir, "no", "such", "dir", "matrix.json")); err == nil {
		t.Error("Save into a missing directory: no error")
	}
}
