package main

import (
	"context"
	"io"
	"os"
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/netjail"
)

// TestE2EEveryClient runs every pinned client (-client all) on the
// 6,000-character row of the cross-client matrix, then the two unit rows
// (emoji, combining accents), which decide a cut's unit, on each client
// that put that text in a model request: a client that placed none of it
// (11 of the 18 pinned, 2026-12-07) has no cut whose unit they could
// tell, and each of its runs of them cost CPU for nothing (a row of every
// client is about 55 s of CPU, quiet, 2026-12-07). With
// INSTRLAB_E2E_ROWS=all every client runs all three, and the
// no-instructions and 1,000-character rows: the atlas workflow's sweeps
// run the 1,000-character row (the atlas matrix) on every version of
// every client they probe, and TestE2EToolDescription runs every client
// with no instructions in CI.
// It runs offline against the
// fakes, each client in a loopback-only network namespace when this
// machine allows it (root). It installs the pinned versions with npm on
// first use. The assertions hold for any client: each is checked against
// the same run's other evidence (the lab's log, the recorded requests, the
// client's own output), never against a known cap or placement. One run
// may take 4 minutes: a Kilo Code CLI run is about 30 s of CPU, several
// times that in wall time on a shared machine.
func TestE2EEveryClient(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run every client end to end (npm installs on first use)")
	}
	all := os.Getenv("INSTRLAB_E2E_ROWS") == "all"
	common := []string{"-matrix", "cross", "-lab", binary, "-j", "2", "-timeout", "240s"}
	first := []string{"-client", "all", "-row", "en-6000"}
	units := []string{"-row", "emoji-6000", "-row", "combining-6000"}
	if all {
		first = append(append(first, units...), "-row", "none", "-row", "en-1000")
	}
	results := runE2E(t, slices.Concat(common, first)...)
	if !all {
		var placed []string
		for _, r := range results {
			if r.Status == "ok" && bestPlacement(r) != nil {
				placed = append(placed, "-client", r.Client)
			}
		}
		t.Logf("the unit rows on the %d clients that placed the text: %q", len(placed)/2, placed)
		if len(placed) > 0 {
			more := runE2E(t, slices.Concat(common, placed, units)...)
			if len(more) != len(placed) {
				t.Errorf("%d runs of the unit rows, want 2 on each of the %d clients that placed the text", len(more), len(placed)/2)
			}
			results = append(results, more...)
		}
	}
	isolated := netjail.Supported() == nil
	kept := map[string]map[string]int{} // client → row → chars kept
	ran := map[string]bool{}
	for _, r := range results {
		ran[r.Client] = true
		name := r.Client + " " + r.Row
		if r.Status != "ok" {
			t.Errorf("%s: status %q (%s)", name, r.Status, r.Reason)
			continue
		}
		if r.Netns != isolated {
			t.Errorf("%s: netns %v, want %v", name, r.Netns, isolated)
		}
		if r.First == nil {
			t.Errorf("%s: no model request recorded", name)
			continue
		}
		if !r.Handshake.InitializeSent && r.Handshake.DiscoverAnswer != "result" {
			t.Errorf("%s: the lab's log shows no handshake: %v", name, r.Handshake.Methods)
		}
		// The client printed the fake's reply, which is the reader's line
		// for the request it answered.
		if r.ModelAnswer != r.Reader.Line() {
			t.Errorf("%s: the client printed %q, the reader says %q", name, r.ModelAnswer, r.Reader.Line())
		}
		best := bestPlacement(r)
		switch {
		case r.Sent == 0:
			if best != nil || r.Reader.Begin != "" {
				t.Errorf("%s: no text was sent, yet found %+v, reader %q", name, best, r.Reader.Line())
			}
		case best == nil:
			if r.Reader.Begin != "" {
				t.Errorf("%s: the reader found %q where the analysis found no text", name, r.Reader.Begin)
			}
		default:
			if best.Kept <= 0 || best.Kept > r.Sent || best.Full != (best.Kept == r.Sent) {
				t.Errorf("%s: kept %d of %d, full %v", name, best.Kept, r.Sent, best.Full)
			}
			if r.Reader.Begin == "" {
				t.Errorf("%s: the text is in the request (%s) but the reader found no BEGIN codeword", name, best.Kind)
			}
			if (r.Reader.End != "") != best.Full {
				t.Errorf("%s: END codeword %q but full = %v", name, r.Reader.End, best.Full)
			}
		}
		if kept[r.Client] == nil {
			kept[r.Client] = map[string]int{}
		}
		if best != nil {
			kept[r.Client][r.Row] = best.Kept
		}
	}
	pinned, err := clients.NewList(context.Background(), []string{clients.All}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(ran) != len(pinned) {
		t.Errorf("%d clients ran, want the %d pinned ones: %v", len(ran), len(pinned), ran)
	}
	checkUnits(t, results)
	// A client keeps at least as much of a longer text, up to its cap.
	for c, k := range kept {
		if _, ran := k["en-1000"]; ran && k["en-6000"] < min(k["en-1000"], 1000) {
			t.Errorf("%s: kept %d of 6,000 but %d of 1,000", c, k["en-6000"], k["en-1000"])
		}
	}
}

// bestPlacement is the placement that kept the most text in any request.
func bestPlacement(r analyze.Result) *analyze.Placement {
	var best *analyze.Placement
	for i := range r.Requests {
		if b := r.Requests[i].Best(); b != nil && (best == nil || b.Kept > best.Kept) {
			best = b
		}
	}
	return best
}

// checkUnits: for each client whose texts were cut, one unit explains every
// cut (analyze.UnitFinding), and with ASCII, emoji and combining text cut it
// is one unit alone. Where the client reports its own cut (Claude Code's
// debug log, "truncated from N to M"), N is the text's length in that unit
// and M its cap.
func checkUnits(t *testing.T, results []analyze.Result) {
	by := map[string][]*analyze.Result{}
	for i := range results {
		by[results[i].Client] = append(by[results[i].Client], &results[i])
	}
	for c, rs := range by {
		f := analyze.UnitFinding(rs)
		t.Logf("%s: cap unit %s", c, f)
		if f.Cut == 0 {
			continue
		}
		cut := map[string]bool{}
		for _, r := range rs {
			if s, ok := r.Sample(); ok && s.Cut() {
				cut[r.Row] = true
			}
		}
		if len(f.Units) == 0 || (cut["en-6000"] && cut["emoji-6000"] && cut["combining-6000"] && f.Decided() == "") {
			t.Errorf("%s: %s", c, f)
			continue
		}
		u := f.Decided()
		for _, r := range rs {
			s, ok := r.Sample()
			for _, tr := range r.Observation.Truncations {
				if ok && u != "" && (tr.From != u.Count(s.Text) || tr.To != f.Caps[u]) {
					t.Errorf("%s %s: the client says it cut %d to %d; in %s the text is %d and the cap %d", c, r.Row, tr.From, tr.To, u, u.Count(s.Text), f.Caps[u])
				}
			}
		}
	}
}
