package derive

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// TestHTTPViewFromRun derives Claude Code 2.1.332's profile from its
// committed excerpt, a trimmed real run whose runs include the cross
// matrix's http rows (2026-12-03, two runs of each, http-none and
// http-ttl-50ms among them): the runs recorded
// over HTTP make the HTTP view, and only it; without them there is no
// view and the stdio values are the same.
func TestHTTPViewFromRun(t *testing.T) {
	x, err := ReadExcerpt(t.Context(), "../data/evidence/claude-code@2.1.332.json")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Profiles(x.Results, Options{Ref: "r", Evidence: x})
	if err != nil {
		t.Fatal(err)
	}
	p := ps[0]
	if p.HTTP == nil {
		t.Fatal("no HTTP view from a run with http rows")
	}
	h := p.HTTP
	type view struct {
		Runs               int
		Probe, ProbeHTTP   bool
		Cap                int
		Where, Discover    string
		CacheHas, Sessions []bool
	}
	caches := []string{
		"ttlMs 0, cacheScope public: the session went on past the ttl in 4 of 4 runs, and server/discover was sent again after it in 0 of those",
		// A session of about 0.7 s on a quiet machine does not outlive a
		// ttl of 1 s (on 2026-12-02, at load 17-36, both runs did): the
		// 50 ms row tells.
		"ttlMs 1,000, cacheScope private: the session went on past the ttl in 0 of 2 runs",
		"ttlMs 50, cacheScope private: the session went on past the ttl in 2 of 2 runs, and server/discover was sent again after it in 0 of those",
	}
	sessions := []string{"against the legacy lab (Mcp-Session-Id), 6 runs: 1 sessions per run", "in all 14 runs, 6 GET streams (0 resumed with Last-Event-ID), 0 DELETEs"}
	has := func(s string, subs []string) []bool {
		var out []bool
		for _, sub := range subs {
			out = append(out, strings.Contains(s, sub))
		}
		return out
	}
	got := view{Runs: h.Runs, Probe: h.Probe, ProbeHTTP: p.Handshake.ProbeHTTP, Cap: h.Instructions.Cap, Where: h.Render.Where(), Discover: h.Discover,
		CacheHas: has(h.Cache, caches), Sessions: has(h.Sessions, sessions)}
	want := view{Runs: 14, Probe: true, ProbeHTTP: true, Cap: 4096, Where: "system message", Discover: "{_meta{clientCapabilities,clientInfo,protocolVersion=2026-07-28}}",
		CacheHas: []bool{true, true, true}, Sessions: []bool{true, true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("HTTP view mismatch (-want +got):\n%s\ncache: %s\nsessions: %s", diff, h.Cache, h.Sessions)
	}
	// With http-none to compare with, the HTTP view's rendering is the
	// stdio one's: the same section heading, per-server heading and tail
	// (without it, the server template was "{text}" and the head and tail
	// not measured).
	if h.Render.Head != p.Render.Head || h.Render.Server != p.Render.Server || h.Render.Tail != p.Render.Tail || h.Render.Server != "## {name}\n{text}" {
		t.Errorf("HTTP rendering head %q server %q tail %q, want the stdio one's: %q %q %q", h.Render.Head, h.Render.Server, h.Render.Tail, p.Render.Head, p.Render.Server, p.Render.Tail)
	}
	if p.NotMeasured("probe_http") {
		t.Errorf("probe_http listed as not measured beside an HTTP view: %q", p.Unmeasured)
	}

	var stdio []analyze.Result
	for _, r := range x.Results {
		if r.Transport != matrix.TransportHTTP {
			stdio = append(stdio, r)
		}
	}
	if len(stdio) == len(x.Results) {
		t.Fatal("the excerpt has no run recorded over HTTP")
	}
	qs, err := Profiles(stdio, Options{Ref: "r", Evidence: x})
	if err != nil {
		t.Fatal(err)
	}
	q := qs[0]
	if q.HTTP != nil || q.Handshake.ProbeHTTP || !q.NotMeasured("probe_http") {
		t.Errorf("without the http runs: view %v, probe_http %v, unmeasured %q: want none, false and listed", q.HTTP, q.Handshake.ProbeHTTP, q.Unmeasured)
	}
	for _, d := range []struct {
		name      string
		want, got any
	}{{"instructions", q.Instructions, p.Instructions}, {"render", q.Render, p.Render}, {"probe_stdio", q.Handshake.ProbeStdio, p.Handshake.ProbeStdio}} {
		if diff := cmp.Diff(d.want, d.got); diff != "" {
			t.Errorf("the http runs changed the stdio %s (-without +with):\n%s", d.name, diff)
		}
	}
}
