package derive

import (
	"fmt"
	"strings"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/lab"
)

// byTransport parts the runs into those over stdio and those of the lab
// over Streamable HTTP, by the transport each run's record kept
// (analyze.Record.Transport); a run recorded before it was kept is stdio.
// A user's own server over HTTP is neither's: it joins the stdio runs, as
// it did before transports were told apart.
func byTransport(all []run) (stdio, http []run) {
	return apartBy(all, func(r run) bool { return r.Transport == matrix.TransportHTTP && r.Row.Server == "" })
}

// deriveHTTP makes the HTTP view from the runs of the lab over HTTP in
// the client's default way (no flags, default arm); nil when there are
// none.
func deriveHTTP(runs []run, ev Evidence) (*profiles.HTTPView, error) {
	var own []run
	for _, r := range runs {
		if len(r.Row.Flags) == 0 && nonDefaultArm(r) == "" {
			// A row whose script calls tools runs a client another way
			// (Codex 0.171.0 then defines the lab's tools, text and all):
			// its runs count for the cache and sessions, not the cap or
			// the placement.
			r.isPlain = r.Row.Plain() && len(r.Row.Script) == 0
			own = append(own, r)
		}
	}
	if len(own) == 0 {
		return nil, nil
	}
	h := &profiles.HTTPView{Runs: len(own)}
	var un []string
	h.Instructions, un = deriveLimit(own, ev)
	h.Unmeasured = append(h.Unmeasured, un...)
	var err error
	if h.Render, un, err = deriveRender(own, ev); err != nil {
		return nil, fmt.Errorf("http view: %w", err)
	}
	h.Unmeasured = append(h.Unmeasured, un...)
	probed := 0
	for _, r := range own {
		if len(r.Handshake.Methods) > 0 && r.Handshake.Methods[0] == lab.Modern.Method() {
			probed++
		}
		if h.Discover == "" && r.HTTP != nil {
			h.Discover = r.HTTP.DiscoverShape
		}
	}
	h.Probe = probed == len(own)
	h.Cache, h.Sessions = cacheWords(own), sessionWords(own)
	h.Note = fmt.Sprintf("%d of %d runs of the lab over Streamable HTTP sent server/discover first; rows %s.", probed, len(own), strings.Join(rowNames(own), ", "))
	return h, nil
}

func rowNames(runs []run) []string {
	seen := map[string]bool{}
	var names []string
	for _, r := range runs {
		if !seen[r.Row.Name] {
			seen[r.Row.Name] = true
			names = append(names, r.Row.Name)
		}
	}
	return names
}

// cacheWords says, per ttlMs and cacheScope a DiscoverResult carried,
// in how many runs the session outlived the ttl and in how many of those
// the client fetched server/discover again.
func cacheWords(runs []run) string {
	type group struct{ n, outlived, refetched int }
	groups := map[string]*group{}
	var order []string
	for _, r := range runs {
		if r.HTTP == nil || r.HTTP.TTLMs == nil {
			continue
		}
		k := fmt.Sprintf("ttlMs %s, cacheScope %s", table.Num(*r.HTTP.TTLMs), r.HTTP.CacheScope)
		g := groups[k]
		if g == nil {
			g = &group{}
			groups[k] = g
			order = append(order, k)
		}
		g.n++
		if r.HTTP.PastTTL > 0 {
			g.outlived++
			if r.HTTP.Refetched > 0 {
				g.refetched++
			}
		}
	}
	if len(order) == 0 {
		return "no DiscoverResult was taken: it sent no server/discover, or got none (ttlMs and cacheScope not measured)"
	}
	var parts []string
	for _, k := range order {
		g := groups[k]
		parts = append(parts, fmt.Sprintf("%s: the session went on past the ttl in %d of %d runs, and server/discover was sent again after it in %d of those", k, g.outlived, g.n, g.refetched))
	}
	return strings.Join(parts, "; ") + ". What cacheScope changes (sharing across users) cannot show in one user's session: not measured."
}

// sessionWords says what the logs show of sessions against the legacy
// (stateful) lab, and of streams and resumption in every run.
func sessionWords(runs []run) string {
	var n, lo, hi, streams, resumed, deletes, lost int
	for _, r := range runs {
		if r.HTTP == nil {
			continue
		}
		streams += r.HTTP.Streams
		resumed += r.HTTP.Resumed
		deletes += r.HTTP.Deletes
		if r.HTTP.Lost != "" {
			lost++
		}
		if r.Row.Eras != lab.ModeLegacy {
			continue
		}
		s := r.HTTP.Sessions
		if n == 0 || s < lo {
			lo = s
		}
		hi = max(hi, s)
		n++
	}
	w := "no run against the legacy lab (the one that gives session ids): sessions not measured"
	if n > 0 {
		w = fmt.Sprintf("against the legacy lab (Mcp-Session-Id), %d runs: %s sessions per run", n, span(lo, hi))
	}
	w += fmt.Sprintf("; in all %d runs, %d GET streams (%d resumed with Last-Event-ID), %d DELETEs", len(runs), streams, resumed, deletes)
	if lost > 0 {
		w += fmt.Sprintf(", %d sessions lost", lost)
	}
	return w + ". The labs that speak the modern era serve HTTP without sessions (the SDK's stateless handler)."
}

func span(lo, hi int) string {
	if lo == hi {
		return table.Num(lo)
	}
	return table.Num(lo) + "–" + table.Num(hi)
}
