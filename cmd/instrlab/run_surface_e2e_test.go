package main

import (
	"os"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestE2ESurface runs the surface matrix's results row on the real Claude
// Code (about 30 s): every scripted call reaches the lab under the name the
// client offered, a request follows with its result, and each part of each
// result is located or reported missing, never both or neither; the plain
// text result arrives whole in the tool result of its call.
func TestE2ESurface(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run Claude Code end to end (npm install on first use)")
	}
	results := runE2E(t, "-client", e2eClient(), "-matrix", "surface", "-row", "surface-results", "-lab", binary, "-timeout", "120s")
	if len(results) != 1 || results[0].Status != "ok" || results[0].Surface == nil {
		t.Fatalf("results %+v", results)
	}
	calls := results[0].Surface.Calls
	if len(calls) != 10 {
		t.Fatalf("%d calls, want the 10 result tools", len(calls))
	}
	for _, c := range calls {
		if !c.Reached || c.Following == 0 || len(c.Parts) == 0 {
			t.Errorf("%s (as %s): reached %v, following %d, %d parts", c.Tool, c.Name, c.Reached, c.Following, len(c.Parts))
		}
		for _, p := range c.Parts {
			if p.Reached == (p.Form == "") || p.Sent == 0 {
				t.Errorf("%s %s: reached %v in form %q, sent %d", c.Tool, p.Part, p.Reached, p.Form, p.Sent)
			}
			if c.Tool == "result_text" && (!p.Full || !p.InResult || p.Form != surface.FormText) {
				t.Errorf("result_text's text: %+v, want whole text in its tool result", p)
			}
		}
	}
}

// TestE2ESurfaceEveryClient runs the surface matrix's results row on
// every pinned client: each of the ten result tools is called and reaches
// the lab, result_text's text reaches the model whole, each part has a
// form exactly when it reached; and what the model got of result_both
// (content text, structuredContent) is what the client's profile, which
// check applies, says (check and run agree on the lab).
func TestE2ESurfaceEveryClient(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run every pinned client end to end (npm install on first use)")
	}
	builtin, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	results := runE2EFailing(t, true, "-client", "all", "-matrix", "surface", "-row", "surface-results", "-lab", binary, "-j", "2", "-timeout", "3m")
	if len(results) < 10 {
		t.Fatalf("%d results, want one per pinned client (10)", len(results))
	}
	fate := func(reached bool) string {
		if reached {
			return profiles.FateKept
		}
		return profiles.FateDropped
	}
	for _, r := range results {
		if r.Status != "ok" || r.Surface == nil || len(r.Surface.Calls) == 0 {
			// A client whose runs of this row never give the model the
			// results has a profile without result facts, derived from
			// runs that went so: LangChain.js 1.1.4, whose ChatOpenAI
			// refuses result_link's URL file block, and Grok CLI 0.0.34,
			// whose first request never defines the server's tools
			// (docs/findings.md, 2026-12-06). Any other such run fails.
			if ps, err := profiles.Select(t.Context(), builtin, []string{r.Client}); err == nil && len(ps) > 0 && ps[0].Surface != nil && ps[0].Surface.Result(profiles.ResultBoth) == nil {
				t.Logf("%s: no result reached the model, as its profile measured: %s %s", r.Client, r.Status, r.Reason)
				continue
			}
		}
		if r.Status != "ok" || r.Surface == nil || len(r.Surface.Calls) != 10 {
			if r.Timing.Sensitive {
				// The server became ready after the client's first model
				// request (Droid does not wait for it: docs/findings.md),
				// a race the run lost on a loaded machine (CI, 2026-12-07),
				// not something the client does.
				t.Logf("%s: %d calls, a race, not a behaviour: %s", r.Client, callsOf(r), r.Timing.Why)
				continue
			}
			t.Errorf("%s: status %s (%s), %d calls, want 10", r.Client, r.Status, r.Reason, callsOf(r))
			continue
		}
		for _, c := range r.Surface.Calls {
			if !c.Reached {
				t.Errorf("%s: %s (as %s) did not reach the lab", r.Client, c.Tool, c.Name)
			}
			for _, p := range c.Parts {
				if p.Reached == (p.Form == "") {
					t.Errorf("%s: %s %s reached %v in form %q", r.Client, c.Tool, p.Part, p.Reached, p.Form)
				}
				if c.Tool == "result_text" && !p.Full {
					t.Errorf("%s: result_text's text not whole: %+v", r.Client, p)
				}
			}
			if c.Tool != "result_both" {
				continue
			}
			var text, structured bool
			for _, p := range c.Parts {
				text = text || p.Reached && strings.HasPrefix(p.Part, "content[")
				structured = structured || p.Reached && p.Part == "structuredContent"
			}
			ps, err := profiles.Select(t.Context(), builtin, []string{r.Client})
			if err != nil || len(ps) == 0 {
				t.Errorf("%s: no profile: %v", r.Client, err)
				continue
			}
			want := ps[0].Surface.Result(profiles.ResultBoth)
			if want == nil || want.Content != fate(text) || want.Structured != fate(structured) {
				t.Errorf("%s: result_both gave the model content text %v, structuredContent %v; its profile says %+v", r.Client, text, structured, want)
			}
		}
	}
}

// callsOf is how many calls of the run's model reached an analysis.
func callsOf(r analyze.Result) int {
	if r.Surface == nil {
		return 0
	}
	return len(r.Surface.Calls)
}
