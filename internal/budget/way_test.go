package budget

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/lab"
)

// TestMeasureRecordsTheWay: a budget measured on a row that sets its own
// model, flags or environment records that way (Codex CLI 0.171.0 names
// its tools only with a model outside its catalogue, so its name budget
// is measured on such a row and holds for that variant alone); one on a
// plain row, or a row that takes the matrix's model, records none; and
// the profile keeps the two apart, each written over its own.
func TestMeasureRecordsTheWay(t *testing.T) {
	exe, _ := os.Executable()
	m := &matrix.Matrix{Name: "ways", Prompt: "P", Model: "matrix-default", Rows: []matrix.Row{
		{Name: "plain", Args: lab.Args{Instr: "ascii:1000"}},
		{Name: "local", Args: lab.Args{Instr: "ascii:1000"}, Model: "local-model"},
	}}
	c := &fakeclient.Client{Exe: exe, Version: "1", Env: map[string]string{"FAKE_DEFER_AT": "3"}}
	var ms []Measurement
	for _, row := range []string{"plain", "local"} {
		o := Options{Client: c, Out: t.TempDir(), Lab: exe, Timeout: 30 * time.Second, Matrix: m, Row: row, Progress: new(strings.Builder)}
		got, err := Measure(context.Background(), o, []string{Defer})
		if err != nil || len(got) != 1 || got[0].Failed != "" {
			t.Fatalf("row %s: %v, %+v", row, err, got)
		}
		ms = append(ms, got[0])
	}
	if ms[0].Way != "" || ms[1].Way != "model local-model" {
		t.Fatalf("ways %q and %q, want \"\" and \"model local-model\"", ms[0].Way, ms[1].Way)
	}
	if tb := Table(ms[1:]); !strings.Contains(tb.Rows[0][1].Text, "defer (model local-model)") {
		t.Errorf("the table's budget cell %q does not name the way", tb.Rows[0][1].Text)
	}
	path := filepath.Join(t.TempDir(), "fake@1.json")
	p := profiles.Profile{Client: "fake", Name: "Fake", Version: "1", Render: profiles.Render{Server: "{text}"},
		Evidence: []profiles.Evidence{{Kind: "instrlab-run", Ref: "r", Says: "s"}}}
	data, err := profiles.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the second time over the first
		if err := UpdateProfile(t.Context(), path, ms, "2026-12-03", "instrlab budget"); err != nil {
			t.Fatal(err)
		}
	}
	got, err := profiles.ReadFile(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Budgets) != 2 || got.Budgets[0].Way != "" || got.Budgets[1].Way != "model local-model" {
		t.Errorf("profile budgets %+v: want one of each way", got.Budgets)
	}
}

// TestQualifyNamespace: the lab's tools inside the server's namespace (the
// first request of a real run of Codex CLI 0.171.0 with local-model,
// 2026-12-03) are named as the client qualifies them, and nothing else:
// not the client's own tools after the namespace, nor a tool of the same
// name outside it, nor a prefixed client's names.
func TestQualifyNamespace(t *testing.T) {
	long := labvocab.LongToolName(119)
	cut := long[:105] + "_a32ed372a0e8"
	r := analyze.Result{
		First: &analyze.RequestFacts{Tools: []string{"exec_command", "lookup_part", "multi_agent_v1", "close_agent", "mcp__lab", "lab_ping", "list_bins", cut, "lookup_part", "get_goal", "web_search"}},
		Tools: []analyze.ToolFacts{{Name: "lab_ping"}, {Name: "list_bins"}, {Name: long}, {Name: "lookup_part"}},
	}
	before := r.First
	qualifyNamespace(&r, "lab")
	want := []string{"exec_command", "lookup_part", "multi_agent_v1", "close_agent", "mcp__lab", "mcp__lab__lab_ping", "mcp__lab__list_bins", "mcp__lab__" + cut, "mcp__lab__lookup_part", "get_goal", "web_search"}
	if diff := cmp.Diff(want, r.First.Tools); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if before.Tools[5] != "lab_ping" {
		t.Error("the analysis's own facts were changed in place")
	}
	prefixed := analyze.Result{First: &analyze.RequestFacts{Tools: []string{"mcp__lab__lookup_part"}}, Tools: []analyze.ToolFacts{{Name: "lookup_part"}}}
	qualifyNamespace(&prefixed, "lab")
	if got := prefixed.First.Tools[0]; got != "mcp__lab__lookup_part" {
		t.Errorf("a prefixed name became %q", got)
	}
	if got := clientName(r, long[:118]); got != "" {
		t.Errorf("clientName of a name the request does not hold: %q", got)
	}
}
