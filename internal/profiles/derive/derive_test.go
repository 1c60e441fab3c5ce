package derive

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/report"
)

// fixtureProfiles derives profiles from the trimmed evidence of real runs:
// for 2.1.328 the rows none, en-5000 (cut), en-1000-dual and en-1000-late;
// for 2.1.285 en-1000-dual only (nothing cut).
func fixtureProfiles(t *testing.T) map[string]profiles.Profile {
	t.Helper()
	_, results, _, err := report.Load(t.Context(), clients.New, fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Profiles(results, Options{Ref: "testdata/summary.md", Display: clients.Display})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]profiles.Profile{}
	for _, p := range ps {
		out[p.ID()] = p
	}
	if len(out) != 2 {
		t.Fatalf("profiles %v, want two", cmp.Diff(nil, out))
	}
	return out
}

func TestProfileFromCutRuns(t *testing.T) {
	p := fixtureProfiles(t)["claude-code@2.1.328"]
	type got struct {
		Cap, AtLeast        int
		Marker              string
		Measured            bool
		Setting             *profiles.Setting
		Head, Server, Tail  string
		ProbeStdio, ProbeHT bool
		Runs                int
		Ref, Kind, Date     string
	}
	want := got{Cap: 4096, Marker: "… [truncated]", Measured: true,
		Head:   "# MCP Server Instructions\n\nThe following MCP servers have provided instructions for how to use their tools and resources:\n\n",
		Server: "## {name}\n{text}", Tail: "\n\n",
		ProbeStdio: true, Runs: 4, Ref: "testdata/summary.md", Kind: "instrlab-run", Date: "2026-11-30"}
	e := p.Evidence[0]
	g := got{p.Instructions.Cap, p.Instructions.AtLeast, p.Instructions.Marker, p.Instructions.Measured, p.Instructions.Setting,
		p.Render.Head, p.Render.Server, p.Render.Tail, p.Handshake.ProbeStdio, p.Handshake.ProbeHTTP, e.Runs, e.Ref, e.Kind, e.Date}
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	for _, s := range []string{`a role "system" message (messages[1].content[0].text)`} {
		if !strings.Contains(p.Render.Placement, s) {
			t.Errorf("placement %q does not say %q", p.Render.Placement, s)
		}
	}
	for _, s := range []string{"the cap setting", "the handshake over Streamable HTTP"} {
		if !hasPrefix(p.Unmeasured, s) {
			t.Errorf("unmeasured %q lacks %q", p.Unmeasured, s)
		}
	}
	if !strings.Contains(p.Startup.Note, "went out without the text") || p.Startup.TimeoutMs != 0 {
		t.Errorf("startup %+v: want the late server not waited for, no timeout", p.Startup)
	}
	if !strings.Contains(p.Handshake.Note, "1 of 1 runs took the DiscoverResult") {
		t.Errorf("handshake note: %s", p.Handshake.Note)
	}
	if !strings.Contains(e.Says, "cut at 4,096 characters") {
		t.Errorf("evidence says %q", e.Says)
	}
}

// TestProfileWithoutCuts: a client whose texts were all kept whole gets
// a lower bound, never a cap, and no marker.
func TestProfileWithoutCuts(t *testing.T) {
	p := fixtureProfiles(t)["claude-code@2.1.285"]
	l := p.Instructions
	if diff := cmp.Diff(profiles.Limit{AtLeast: 1000, Unit: profiles.UnitCodepoint}, profiles.Limit{Cap: l.Cap, AtLeast: l.AtLeast, Unit: l.Unit, Marker: l.Marker, Setting: l.Setting, Measured: l.Measured}); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	for _, s := range []string{"the cap on instructions (only a lower bound", "the truncation marker", "the head and tail"} {
		if !hasPrefix(p.Unmeasured, s) {
			t.Errorf("unmeasured %q lacks %q", p.Unmeasured, s)
		}
	}
	if p.Handshake.ProbeStdio || !strings.Contains(p.Handshake.Note, "0 of 1 runs") {
		t.Errorf("handshake %+v: want initialize first", p.Handshake)
	}
	if p.Render.Server != "## {name}\n{text}" || p.Render.Head != "" {
		t.Errorf("render %+v: want the transcript's heading and no head", p.Render)
	}
}

func TestProfileRoundTrip(t *testing.T) {
	for id, p := range fixtureProfiles(t) {
		b, err := profiles.Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := profiles.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if diff := cmp.Diff(p, got); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", id, diff)
		}
	}
}

// TestDeriveSetting: a variable whose plain-digit value raised the cap and
// whose comma form was ignored is a plain-digits setting; one that was only
// ever taken is not given a syntax.
func TestDeriveSetting(t *testing.T) {
	mk := func(env string, kept int, full bool) run {
		return run{Result: analyze.Result{Sent: 20000, First: &analyze.RequestFacts{Placements: []analyze.Placement{{Kept: kept, Full: full}}}},
			Row: matrix.Row{Env: map[string]string{"CAP": env}}}
	}
	tests := []struct {
		name string
		runs []run
		want *profiles.Setting
	}{
		{"both", []run{mk("25000", 20000, true), mk("25,000", 4096, false)}, &profiles.Setting{Env: "CAP", Syntax: profiles.SyntaxPlainDigits}},
		{"taken only", []run{mk("25000", 20000, true)}, nil},
		{"comma taken", []run{mk("25000", 20000, true), mk("25,000", 20000, true)}, nil},
		{"ignored only", []run{mk("25,000", 4096, false)}, nil},
	}
	for _, tt := range tests {
		got, _ := deriveSetting(tt.runs, 4096)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

func hasPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// fixtureDir holds trimmed evidence of real runs of two Claude Code
// versions, shared with the report's tests.
const fixtureDir = "../../matrix/analyze/testdata/runs"

// TestSaysNamesTheUnit: the evidence line names the cap in the unit it
// counts (issue 28: Claude Code's 4,096 UTF-16 units were "4,096
// characters").
func TestSaysNamesTheUnit(t *testing.T) {
	p := profiles.Profile{Instructions: profiles.Limit{Cap: 4096, Unit: "utf16", Marker: "… [truncated]"}, Render: profiles.Render{Placement: "nowhere"}}
	if got := says(p, nil); !strings.Contains(got, "cut at 4,096 UTF-16 units, then") {
		t.Errorf("says %q, want the cap in UTF-16 units", got)
	}
	p.Instructions.Unit = "codepoint"
	if got := says(p, nil); !strings.Contains(got, "cut at 4,096 characters, then") {
		t.Errorf("says %q, want the cap in characters", got)
	}
}
