package profiles

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/atlas"
)

var update = flag.Bool("update", false, "rewrite the embedded data from its source: data/atlas/ranges.json from atlas/atlas.json, data/builtin.gob from data/*.json")

// atlasRanges reads the ranges from the committed atlas, the way
// data/ranges.json was made.
func atlasRanges(t *testing.T) []byte {
	t.Helper()
	a, err := atlas.Read(t.Context(), "../../atlas/atlas.json")
	if err != nil {
		t.Fatal(err)
	}
	var out []Ranges
	for _, tl := range a.Timelines {
		date := a.Date
		if tl.Sweep.Date != "" {
			date = tl.Sweep.Date // an atlas merged from several sweeps
		}
		rs := Ranges{Client: tl.Client, Source: "atlas/atlas.json, " + date, Versions: tl.Versions}
		for _, s := range tl.Segments {
			r := Range{From: s.From, To: s.To, Props: map[string]string{}}
			for _, p := range s.Props {
				r.Props[p.Name] = p.Value
			}
			rs.Ranges = append(rs.Ranges, r)
		}
		out = append(out, rs)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRangesMatchAtlas fails when the embedded ranges drift from the
// committed atlas: refresh them with go test -run Ranges -update.
func TestRangesMatchAtlas(t *testing.T) {
	want := atlasRanges(t)
	if *update {
		if err := os.WriteFile(rangesFile, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := data.ReadFile(rangesFile)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s is not what atlas/atlas.json gives (go test -run Ranges -update) (-want +got):\n%s", rangesFile, diff)
	}
}

func TestSelectVersions(t *testing.T) {
	builtin, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		wantID    string // the profile picked
		wantTitle string
		wantErr   string // a part of the error
	}{
		{name: "claude-code", wantID: "claude-code@2.1.332", wantTitle: "Claude Code 2.1.332"},
		{name: "claude-code@latest", wantID: "claude-code@2.1.332"},
		{name: "claude-code@2.1.285", wantID: "claude-code@2.1.285", wantTitle: "Claude Code 2.1.285 in arm v2"},
		// 2.1.296 to 2.1.332 is one range of the atlas (cap 4,096, probe).
		{name: "claude-code@2.1.300", wantID: "claude-code@2.1.328", wantTitle: "Claude Code 2.1.300 (as 2.1.328) in arm v2"},
		{name: "claude-code@2.1.296", wantID: "claude-code@2.1.328"},
		// 2.1.268 to 2.1.291 holds 2.1.285.
		{name: "claude-code@2.1.270", wantID: "claude-code@2.1.285", wantTitle: "Claude Code 2.1.270 (as 2.1.285) in arm v2"},
		// 2.1.292 to 2.1.295: the probe without the 4,096 cap; no profile.
		{name: "claude-code@2.1.293", wantErr: "no built-in profile is of a version in that range"},
		{name: "claude-code@2.1.84", wantErr: "range 2.1.84 to 2.1.90 (cap 2048"},
		{name: "claude-code@9.9.9", wantErr: "does not list claude-code@9.9.9 among the 473 published versions"},
		{name: "claude-code@2.1.295x", wantErr: "does not list"},
		// Every pinned client by name (its newest) and by version.
		{name: "codex", wantID: "codex@0.171.0", wantTitle: "Codex CLI 0.171.0"},
		{name: "codex@0.169.0", wantID: "codex@0.169.0"},
		{name: "copilot", wantID: "copilot@1.0.102"},
		// Copilot CLI's sweep: 1.0.81 to 1.0.102 is one range (server/discover
		// first); 1.0.80 and before send initialize first.
		{name: "copilot@1.0.92", wantID: "copilot@1.0.102", wantTitle: "GitHub Copilot CLI 1.0.92 (as 1.0.102)"},
		{name: "copilot@1.0.80", wantErr: "no built-in profile is of a version in that range"},
		{name: "copilot@1.0.100", wantErr: "does not list copilot@1.0.100 among the 98 published versions"},
		// Codex's sweep: 0.167.2 to 0.169.0 is one range (developer
		// message, cap 247); 0.144.0 to 0.166.0 drops the text.
		{name: "codex@0.168.0", wantID: "codex@0.169.0", wantTitle: "Codex CLI 0.168.0 (as 0.169.0)"},
		{name: "codex@0.150.0", wantErr: "no built-in profile is of a version in that range"},
		// opencode's sweep: 1.18.10 to 1.18.33 is one range; 1.18.8 alone
		// probes with server/discover first.
		{name: "opencode@1.18.20", wantID: "opencode@1.18.33"},
		{name: "opencode@1.18.8", wantErr: "no built-in profile is of a version in that range"},
		// Qwen Code's sweep: 0.23.0 to 0.24.4 is one range.
		{name: "qwen@0.23.0", wantID: "qwen@0.24.4", wantTitle: "Qwen Code 0.23.0 (as 0.24.4)"},
		{name: "qwen@0.21.10", wantErr: "no built-in profile is of a version in that range"},
		// Gemini CLI's sweep: the text is in the user turn, under
		// <session_context>, from 0.40.0 to 0.61.0; 0.30.0 puts it in
		// the system prompt.
		{name: "gemini@0.51.0", wantID: "gemini@0.61.0", wantTitle: "Gemini CLI 0.51.0 (as 0.61.0)"},
		{name: "gemini@0.40.0", wantID: "gemini@0.61.0"},
		{name: "gemini@0.39.1", wantErr: "range 0.29.0 to 0.39.1 ("},
		{name: "gemini@0.30.0", wantErr: "no built-in profile is of a version in that range"},
		// 0.11.3, the adapter's floor, opens the timeline (0.10.0 and
		// older are refused: no --output-format stream-json).
		{name: "gemini@0.11.3", wantErr: "range 0.11.3 to 0.25.0 ("},
		{name: "gemini@0.10.0", wantErr: "ran no version of gemini as early or as late as 0.10.0"},
		{name: "no-such-client", wantErr: `no profile for client "no-such-client" (built in: adk, ai-sdk, claude-agent-sdk, claude-code`},
		{name: "no-such-client@1.0.0", wantErr: `no profile for client "no-such-client"`},
		{name: "missing.json", wantErr: "reading profile"},
	}
	for _, tt := range tests {
		ps, err := Select(t.Context(), builtin, []string{tt.name})
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Select(%s) = %v, want an error with %q", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Select(%s): %v", tt.name, err)
			continue
		}
		if got := ps[0].ID(); got != tt.wantID {
			t.Errorf("Select(%s) = %s, want %s", tt.name, got, tt.wantID)
		}
		if tt.wantTitle != "" && ps[0].Title() != tt.wantTitle {
			t.Errorf("Select(%s).Title() = %q, want %q", tt.name, ps[0].Title(), tt.wantTitle)
		}
	}
}

// TestSelectBetweenRanges: a version in a gap the sweep did not narrow
// is refused, never given a neighbour's profile.
func TestSelectBetweenRanges(t *testing.T) {
	builtin := []Profile{{Client: "x", Name: "X", Version: "1.0"}, {Client: "x", Name: "X", Version: "4.0"}}
	ranges := []Ranges{{Client: "x", Source: "test", Versions: []string{"1.0", "2.0", "3.0", "4.0"},
		Ranges: []Range{{From: "1.0", To: "1.0", Props: map[string]string{"cap": "1"}}, {From: "4.0", To: "4.0", Props: map[string]string{"cap": "2"}}}}}
	_, err := selectIn(t.Context(), builtin, ranges, []string{"x@2.0"})
	if err == nil || !strings.Contains(err.Error(), "it lies between 1.0 and 4.0") {
		t.Errorf("x@2.0: %v, want the gap named", err)
	}
	ps, err := selectIn(t.Context(), builtin, ranges, []string{"x@4.0", "x"})
	if err != nil || ps[0].Version != "4.0" || ps[1].Version != "4.0" {
		t.Errorf("x@4.0, x = %v, %v", ps, err)
	}
}
