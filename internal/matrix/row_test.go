package matrix

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/lab"
)

func TestSeed(t *testing.T) {
	m := Seed()
	if len(m.Rows) != 10 || m.Repeats != 2 || m.Baseline != "none" {
		t.Fatalf("seed: %d rows, %d repeats, baseline %q", len(m.Rows), m.Repeats, m.Baseline)
	}
	late := m.Resolved(m.Rows[9])
	if late.MaxTurns != 3 || late.Model != "opus" || len(late.Script) != 1 || late.Script[0].Tool != "Bash" || !strings.Contains(late.Prompt, "sleep 10") {
		t.Errorf("late row resolved to %+v", late)
	}
	want := []string{"serve", "lab", "-instr", "ascii:1000", "-eras", "legacy", "-init-delay", "8s", "-log", "/x/lab.jsonl"}
	if diff := cmp.Diff(want, late.LabArgs("/x/lab.jsonl")); diff != "" {
		t.Errorf("LabArgs mismatch (-want +got):\n%s", diff)
	}
	if !m.Rows[4].For("claude-code") || m.Rows[4].For("codex") || !m.Rows[0].For("codex") {
		t.Error("For does not follow clients")
	}
}

func TestValidate(t *testing.T) {
	const prompt = `"prompt": "P", `
	tests := []struct {
		json, err string
	}{
		{`{` + prompt + `"rows": []}`, "no rows"},
		{`{` + prompt + `"rows": [{"name": "A", "instr": "none"}]}`, `name "A"`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none"}, {"name": "a", "instr": "none"}]}`, "duplicate"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "ascii:x"}]}`, "not a number"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "era": "future"}]}`, `eras "future"`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "eras": "legacy,dual"}]}`, `eras "legacy,dual"`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "ascii:1000", "transport": "http", "eras": "modern,legacy", "drop_after_calls": 1}]}`, "need -eras legacy"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "on_unknown": "explode"}]}`, `-on-unknown "explode"`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "init_delay": "-1s"}]}`, "must not be negative"},
		{`{` + prompt + `"rows": [{"name": "a"}]}`, "no instr"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "init_delay": "8"}]}`, "missing unit"},
		{`{"rows": [{"name": "a", "instr": "none"}]}`, "no prompt"},
		{`{` + prompt + `"baseline": "b", "rows": [{"name": "a", "instr": "none"}]}`, `baseline "b"`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "typo": 1}]`, "unexpected end"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "japanese:3000", "era": "dual", "init_delay": "3s"}]}`, ""},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "tool_description": "ascii:3000"}]}`, ""},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "tool_description": "none"}]}`, `-tool-desc: want KIND:N`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "tool_description": "ascii:1000", "tool_description_file": "d.md"}]}`, "exclusive"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "server": "s", "tool_description": "ascii:1000"}]}`, "own tools"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "ascii:1000", "drop_after_calls": 1}]}`, "need transport http"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "transport": "http", "session_texts": true}]}`, "needs a generated text"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "ascii:1000", "transport": "http", "drop_session": 2, "drop_after_calls": 1}]}`, "exclusive"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "ascii:1000", "transport": "http", "era": "dual", "drop_after_calls": 1}]}`, "need -eras legacy"},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "ascii:1000", "transport": "http", "drop_after_calls": 1, "session_texts": true}]}`, ""},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "timeout": "90"}]}`, `timeout "90": want a duration`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "timeout": "-1s"}]}`, `timeout "-1s"`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "timeout": "90s"}]}`, ""},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "idle": "20"}]}`, `idle "20": want a duration`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "idle": "0s"}]}`, `idle "0s"`},
		{`{` + prompt + `"rows": [{"name": "a", "instr": "none", "idle": "20s"}]}`, ""},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.json), "m.json")
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("Parse(%s) = %v, want no error", tt.json, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("Parse(%s) = %v, want an error containing %q", tt.json, err, tt.err)
		}
	}
}

// TestDocsShowTheSeed keeps the example in docs/matrix.md equal to the
// built-in matrix.
func TestDocsShowTheSeed(t *testing.T) {
	doc, err := os.ReadFile("../../docs/matrix.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```json\n"+string(SeedJSON())+"```") {
		t.Error("docs/matrix.md does not show internal/matrix/seed.json verbatim")
	}
}

// TestSessionsReconnectLab: the sessions matrix's reconnect row starts its
// lab dropping the session after the first call and giving each session
// its own text, over HTTP, and is no plain row.
func TestSessionsReconnectLab(t *testing.T) {
	m := Sessions()
	if err := m.Select([]string{"turns3-reconnect"}, 1); err != nil {
		t.Fatal(err)
	}
	r := m.Rows[0]
	args := strings.Join(r.Lab("lab.jsonl").Args(), " ")
	for _, want := range []string{"-drop-after-calls 1", "-session-texts", "-tool-order rotate", "-tools 6"} {
		if !strings.Contains(args, want) {
			t.Errorf("lab args %q: want %q", args, want)
		}
	}
	if !r.HTTP() || r.Plain() {
		t.Errorf("transport %q, plain %v: want http, not plain", r.Transport, r.Plain())
	}
}

// TestRowJSONRoundTrip: every built-in row, written as matrix.json holds
// it (its own keys, then the lab's), reads back the same; its lab
// settings sit beside its own keys, as a matrix file writes them.
func TestRowJSONRoundTrip(t *testing.T) {
	for _, m := range []*Matrix{Seed(), Cross(), Atlas(), Surface(), Protocol(), Sessions()} {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(b, m.Name)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		again, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(b), string(again)); diff != "" {
			t.Errorf("%s: round trip mismatch (-want +got):\n%s", m.Name, diff)
		}
		for i := range m.Rows {
			if diff := cmp.Diff(m.Rows[i].Args, got.Rows[i].Args); diff != "" {
				t.Errorf("%s: row %s: lab settings mismatch (-want +got):\n%s", m.Name, m.Rows[i].Name, diff)
			}
		}
	}
	b, err := json.Marshal(Row{Name: "r", Label: "l", Args: lab.Args{Instr: "ascii:10", InitDelay: 8 * time.Second}, NoDelta: true})
	if err != nil || string(b) != `{"name":"r","label":"l","no_delta":true,"instr":"ascii:10","init_delay":"8s"}` {
		t.Errorf("a row as JSON: %s, %v", b, err)
	}
}

// TestRowLimit: a row's own timeout bounds its runs when it is the shorter
// of the two, or the runner sets none; else the runner's holds.
func TestRowLimit(t *testing.T) {
	for _, tt := range []struct {
		own    string
		runner time.Duration
		want   time.Duration
	}{
		{"", 3 * time.Minute, 3 * time.Minute},
		{"90s", 3 * time.Minute, 90 * time.Second},
		{"90s", time.Minute, time.Minute},
		{"90s", 0, 90 * time.Second},
		{"", 0, 0},
	} {
		if got := (Row{Timeout: tt.own}).Limit(tt.runner); got != tt.want {
			t.Errorf("Row{Timeout: %q}.Limit(%v) = %v, want %v", tt.own, tt.runner, got, tt.want)
		}
	}
}
