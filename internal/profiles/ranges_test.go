package profiles

import (
	"bytes"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/atlas"
)

var update = flag.Bool("update", false, "rewrite the embedded data from its source: data/atlas/ranges.json from atlas/atlas.json, data/builtin.gob from data/*.json")

// atlasRanges reads the ranges from the committed atlases (atlas.Committed),
// the way data/atlas/ranges.json was made: per client of the atlas, its
// segments, each split where another atlas's segments of the client
// change (refine).
func atlasRanges(t *testing.T) []byte {
	t.Helper()
	dirs, err := atlas.Committed("../..")
	if err != nil {
		t.Fatal(err)
	}
	var as []*atlas.Atlas
	var rangeAtlases []string
	for _, d := range dirs {
		f := d + "/atlas.json"
		a, err := atlas.Read(t.Context(), "../../"+f)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
		rangeAtlases = append(rangeAtlases, f)
	}
	source := func(a *atlas.Atlas, f string, tl atlas.Timeline) string {
		date := a.Date
		if tl.Sweep.Date != "" {
			date = tl.Sweep.Date // an atlas merged from several sweeps
		}
		return f + ", " + date
	}
	var out []Ranges
	for _, tl := range as[0].Timelines {
		rs := Ranges{Client: tl.Client, Source: source(as[0], rangeAtlases[0], tl), Versions: tl.Versions}
		for _, s := range tl.Segments {
			rs.Ranges = append(rs.Ranges, rangeOf(s))
		}
		for k, a := range as[1:] {
			for _, other := range a.Timelines {
				if other.Client != tl.Client || len(other.Segments) == 0 {
					continue
				}
				rs.Source += "; " + source(a, rangeAtlases[k+1], other)
				var split []Range
				for _, s := range other.Segments {
					if !slices.Contains(rs.Versions, s.From) || !slices.Contains(rs.Versions, s.To) {
						t.Fatalf("%s: %s's span %s to %s is not among the atlas's versions", rangeAtlases[k+1], other.Client, s.From, s.To)
					}
					split = append(split, rangeOf(s))
				}
				rs.Ranges = refine(rs.Versions, rs.Ranges, split)
			}
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

func rangeOf(s atlas.Segment) Range {
	r := Range{From: s.From, To: s.To, Props: map[string]string{}}
	for _, p := range s.Props {
		r.Props[p.Name] = p.Value
	}
	return r
}

// refine splits ranges (spans of versions, in order) by other, another
// sweep's spans of the same versions: within the versions other's sweep
// ran from its first span to its last, a version keeps a range only where
// a span of other holds it too (the two intersected, with both's
// properties); between two of other's spans, where its change was not
// narrowed down, none. Outside them ranges stay as they are: other says
// nothing there.
func refine(versions []string, ranges, other []Range) []Range {
	idx := func(v string) int { return slices.Index(versions, v) }
	lo, hi := idx(other[0].From), idx(other[len(other)-1].To)
	var out []Range
	for _, r := range ranges {
		from, to := idx(r.From), idx(r.To)
		if from < lo {
			out = append(out, Range{From: r.From, To: versions[min(to, lo-1)], Props: r.Props})
		}
		for _, o := range other {
			a, b := max(from, idx(o.From)), min(to, idx(o.To))
			if a > b {
				continue
			}
			props := maps.Clone(r.Props)
			maps.Copy(props, o.Props)
			out = append(out, Range{From: versions[a], To: versions[b], Props: props})
		}
		if to > hi {
			out = append(out, Range{From: versions[max(from, hi+1)], To: r.To, Props: r.Props})
		}
	}
	return out
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
		// 2.1.296 to 2.1.332 is one range of the atlas (cap 4,096, probe),
		// split at 2.1.304 by the budgets' atlas (defers every tool).
		{name: "claude-code@2.1.310", wantID: "claude-code@2.1.328", wantTitle: "Claude Code 2.1.310 (as 2.1.328) in arm v2"},
		{name: "claude-code@2.1.304", wantID: "claude-code@2.1.328"},
		{name: "claude-code@2.1.300", wantErr: "no built-in profile is of a version in that range"},
		// 2.1.268 to 2.1.291 holds 2.1.285 in the atlas; the surface's
		// atlas ran 2.1.285 on, so what 2.1.270 does with results, schemas
		// and names was never measured: not 2.1.285's range.
		{name: "claude-code@2.1.288", wantID: "claude-code@2.1.285", wantTitle: "Claude Code 2.1.288 (as 2.1.285) in arm v2"},
		{name: "claude-code@2.1.270", wantErr: "range 2.1.268 to 2.1.284 ("},
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
		// Qwen Code's sweep: 0.23.0 to 0.24.4 is one range; the surface's
		// splits it at 0.23.4 (both parts of a result) and 0.24.2 (every
		// schema keyword kept).
		{name: "qwen@0.24.2", wantID: "qwen@0.24.4", wantTitle: "Qwen Code 0.24.2 (as 0.24.4)"},
		{name: "qwen@0.23.0", wantErr: "range 0.23.0 to 0.23.3 ("},
		{name: "qwen@0.21.10", wantErr: "no built-in profile is of a version in that range"},
		// Gemini CLI's sweep: the text is in the user turn, under
		// <session_context>, from 0.40.0 to 0.61.0; 0.30.0 puts it in
		// the system prompt.
		{name: "gemini@0.51.0", wantID: "gemini@0.61.0", wantTitle: "Gemini CLI 0.51.0 (as 0.61.0)"},
		// The surface's atlas splits it at 0.44.0 (nullable added), the
		// results' at 0.51.0 (a result of 39,959 UTF-16 units, 40,000
		// before), and the atlas's 0.29.0 to 0.39.1 at 0.33.0 (names cut
		// to 63).
		{name: "gemini@0.44.0", wantErr: "range 0.44.0 to 0.47.0 ("},
		{name: "gemini@0.40.0", wantErr: "range 0.40.0 to 0.43.0 ("},
		{name: "gemini@0.39.1", wantErr: "range 0.33.0 to 0.39.1 ("},
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

// TestRefine: another sweep's spans split a range where they change, a
// version between two of them (a change not narrowed down) keeps none,
// and outside the versions the other sweep ran a range stays whole.
func TestRefine(t *testing.T) {
	vs := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	ranges := []Range{{From: "1", To: "5", Props: map[string]string{"a": "x"}}, {From: "6", To: "9", Props: map[string]string{"a": "y"}}}
	other := []Range{{From: "3", To: "4", Props: map[string]string{"b": "p"}}, {From: "6", To: "7", Props: map[string]string{"b": "q"}}}
	want := []Range{
		{From: "1", To: "2", Props: map[string]string{"a": "x"}},
		{From: "3", To: "4", Props: map[string]string{"a": "x", "b": "p"}},
		// 5: between the other's spans, no range.
		{From: "6", To: "7", Props: map[string]string{"a": "y", "b": "q"}},
		{From: "8", To: "9", Props: map[string]string{"a": "y"}},
	}
	if diff := cmp.Diff(want, refine(vs, ranges, other)); diff != "" {
		t.Errorf("refine (-want +got):\n%s", diff)
	}
}
