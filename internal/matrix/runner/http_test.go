package runner

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/lab"
)

// TestHTTPRowsFakeClient: rows of transport http serve the lab over
// Streamable HTTP and give the client its URL. The record keeps the
// transport; the analysis counts a probing client's server/discover with
// its shape, the DiscoverResult's ttlMs and cacheScope, and a fetch of it
// again once the ttl has passed (FAKE_REFETCH) or none (without); the
// legacy lab's one session; and where the text came from.
func TestHTTPRowsFakeClient(t *testing.T) {
	probe := map[string]string{"FAKE_PROBE": "1", "FAKE_TURNS": "2", "FAKE_GAP": "100ms"}
	refetch := maps.Clone(probe)
	refetch["FAKE_REFETCH"] = "1"
	m := testMatrix(
		matrix.Row{Name: "http-legacy", Label: "legacy", Args: lab.Args{Instr: "ascii:1000"}, Transport: matrix.TransportHTTP},
		matrix.Row{Name: "http-ttl", Label: "ttl", Args: lab.Args{Instr: "ascii:1000", Eras: lab.ModeBoth, DiscoverTTL: 10 * time.Millisecond, CacheScope: "private"}, Transport: matrix.TransportHTTP,
			Env: probe},
		matrix.Row{Name: "http-ttl-refetch", Label: "ttl, fetched again", Args: lab.Args{Instr: "ascii:1000", Eras: lab.ModeBoth, DiscoverTTL: 10 * time.Millisecond, CacheScope: "private"}, Transport: matrix.TransportHTTP,
			Env: refetch},
	)
	m.Repeats = 1
	r := newRunner(t, m, fakeClient("1", nil))
	results, st, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 0 || len(results) != 3 {
		t.Fatalf("stats %+v, %d results", st, len(results))
	}
	type facts struct {
		Row, Record, Transport, Methods, Reply, Shape, Scope string
		TTL, Discovers, Refetched, Sessions                  int
	}
	var got []facts
	for _, res := range results {
		rec, err := analyze.ReadRecord(res.Dir)
		if err != nil {
			t.Fatal(err)
		}
		f := facts{Row: res.Row, Record: rec.Transport, Transport: res.Transport, Methods: strings.Join(res.Handshake.Methods, " "), TTL: -1}
		if b := res.First.Best(); b != nil {
			f.Reply = string(b.Reply)
		}
		if h := res.HTTP; h != nil {
			f.Shape, f.Scope, f.Discovers, f.Refetched, f.Sessions = h.DiscoverShape, h.CacheScope, h.Discovers, h.Refetched, h.Sessions
			if h.TTLMs != nil {
				f.TTL = *h.TTLMs
			}
		}
		got = append(got, f)
	}
	shape := "{_meta{clientCapabilities,clientInfo,protocolVersion=2026-07-28}}"
	want := []facts{
		{Row: "http-legacy", Record: "http", Transport: "http", Methods: "initialize notifications/initialized tools/list", Reply: "initialize", TTL: -1, Sessions: 1},
		{Row: "http-ttl", Record: "http", Transport: "http", Methods: "server/discover tools/list", Reply: "discover", Shape: shape, Scope: "private", TTL: 10, Discovers: 1},
		{Row: "http-ttl-refetch", Record: "http", Transport: "http", Methods: "server/discover tools/list server/discover", Reply: "discover", Shape: shape, Scope: "private", TTL: 10, Discovers: 2, Refetched: 1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("HTTP facts mismatch (-want +got):\n%s", diff)
	}
}

// TestHTTPSessionDropped: a server that drops the session mid-run (the
// lab's -drop-session: 404 from the second request in the session on)
// fails the run when the client opens no new session (the fake opens
// none), with the reason in the result, though the client itself exited
// 0; and the run's command counts it failed.
func TestHTTPSessionDropped(t *testing.T) {
	m := testMatrix(matrix.Row{Name: "http-drop", Label: "drop", Args: lab.Args{Instr: "ascii:1000", DropSession: 1}, Transport: matrix.TransportHTTP})
	m.Repeats = 1
	r := newRunner(t, m, fakeClient("1", nil))
	results, st, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 1 || len(results) != 1 {
		t.Fatalf("stats %+v, %d results: want the one run failed", st, len(results))
	}
	res := results[0]
	for _, want := range []string{"the HTTP server dropped session", "-drop-session 1", "the client sent nothing after"} {
		if res.Status != analyze.StatusFailed || !strings.Contains(res.Reason, want) {
			t.Errorf("status %s, reason %q: want failed, saying %q", res.Status, res.Reason, want)
		}
	}
	rec, err := analyze.ReadRecord(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != analyze.StatusOK || rec.Transport != matrix.TransportHTTP {
		t.Errorf("record: status %s, transport %q: want ok (the client exited 0) over http", rec.Status, rec.Transport)
	}
}

// TestGateLeavesHTTPRunsOut: over HTTP the lab listens before the client
// starts, so the time to its first reply is the client's own boot (466
// ms of Claude Code 2.1.332 at load 0.2), not the lab's start-up; it must
// not lower the runs at once. The same gate is lowered by a stdio run.
func TestGateLeavesHTTPRunsOut(t *testing.T) {
	for _, tt := range []struct {
		transport string
		allowed   int
	}{{matrix.TransportHTTP, 2}, {"", 1}} {
		m := testMatrix(matrix.Row{Name: "r", Label: "r", Args: lab.Args{Instr: "ascii:100"}, Transport: tt.transport})
		m.Repeats = 1
		r := newRunner(t, m, fakeClient("1", nil))
		var said strings.Builder
		r.Gate = load.NewGate(2, 4*time.Nanosecond, 0, &said) // any start-up is over a quarter of it
		if _, st, err := r.Run(context.Background()); err != nil || st.Failed != 0 {
			t.Fatalf("%v, stats %+v", err, st)
		}
		if got := r.Gate.Allowed(); got != tt.allowed {
			t.Errorf("transport %q: %d run(s) at once after the run, want %d; said %q", tt.transport, got, tt.allowed, said.String())
		}
	}
}
