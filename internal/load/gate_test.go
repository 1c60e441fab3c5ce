package load

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestGateLowersAndRaises: a server slow to start (over a quarter of the
// smallest budget) lowers the runs at once by one, to one; a quick one
// raises them again, to Max; each change is said.
func TestGateLowersAndRaises(t *testing.T) {
	var said strings.Builder
	g := NewGate(3, time.Second, 0, &said)
	g.sample = func() (Sample, bool) { return Sample{One: 30, CPUs: 2}, true }
	steps := []struct {
		startup time.Duration
		known   bool
		want    int
	}{
		{300 * time.Millisecond, true, 2}, // over 250 ms
		{900 * time.Millisecond, true, 1},
		{2 * time.Second, true, 1},        // never below one
		{200 * time.Millisecond, true, 1}, // under the limit, not under half of it: no change
		{0, false, 1},                     // not measured: no change
		{100 * time.Millisecond, true, 2}, // under 125 ms
		{20 * time.Millisecond, true, 3},
		{20 * time.Millisecond, true, 3}, // never above Max
	}
	for i, st := range steps {
		if err := g.Acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
		g.Release("", st.startup, st.known)
		if got := g.Allowed(); got != st.want {
			t.Errorf("step %d (start-up %v): %d at once, want %d", i, st.startup, got, st.want)
		}
	}
	if !strings.Contains(said.String(), "a server took 300ms to start, over 250ms (a quarter of the smallest budget measured; load average 30.00 on 2 CPUs): 2 run(s) at once") {
		t.Errorf("said:\n%s", said.String())
	}
}

// TestGateBlocksAndWaitsForLoad: at one run at a time a second waits for
// the first to end; after a slow start, a run first waits for the load
// to fall to one task per CPU, up to Wait, and says so.
func TestGateBlocksAndWaitsForLoad(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var said strings.Builder
		g := NewGate(1, time.Second, time.Minute, &said)
		loads := []float64{8, 6, 3, 2}
		g.sample = func() (Sample, bool) {
			l := loads[0]
			if len(loads) > 1 {
				loads = loads[1:]
			}
			return Sample{One: l, CPUs: 2}, true
		}
		g.Acquire(context.Background())
		second := make(chan time.Time, 1)
		go func() {
			g.Acquire(context.Background())
			second <- time.Now()
		}()
		synctest.Wait()
		if len(second) != 0 {
			t.Fatal("a second run started beside the first at one at a time")
		}
		start := time.Now()
		g.Release("", 2*time.Second, true) // slow: the next waits for the load
		synctest.Wait()
		got := <-second
		// Load 8, 6, 3 on 2 CPUs are over one per CPU; 2 is not: three
		// polls 5 s apart.
		if d := got.Sub(start); d != 15*time.Second {
			t.Errorf("the second run waited %v for the load, want 15s", d)
		}
		if !strings.Contains(said.String(), "waiting up to 1m0s") || !strings.Contains(said.String(), "load average 2.00 on 2 CPUs: going on") {
			t.Errorf("said:\n%s", said.String())
		}
	})
}

// TestGateServerSlowOnItsOwn: a user's server whose every start-up is
// over the limit on a quiet machine (server-everything: 500-650 ms at
// load 0.75 per CPU, against 298 ms) lowers the bound once, then no more
// while it starts within half again its quickest, and says so once; a
// start-up well over its quickest, or any on a loaded machine, lowers it
// as before; the lab's quickest is its own.
func TestGateServerSlowOnItsOwn(t *testing.T) {
	var said strings.Builder
	g := NewGate(6, 1200*time.Millisecond, 0, &said)
	load := 1.5
	g.sample = func() (Sample, bool) { return Sample{One: load, CPUs: 2}, true }
	steps := []struct {
		server  string
		startup time.Duration
		load    float64
		want    int
	}{
		{"everything", 655 * time.Millisecond, 1.5, 5}, // first seen: may be the load
		{"everything", 522 * time.Millisecond, 1.5, 5}, // its own: no lower
		{"everything", 700 * time.Millisecond, 1.5, 5}, // within 783 ms (1.5 × 522)
		{"everything", 900 * time.Millisecond, 1.5, 4}, // well over its quickest
		{"everything", 600 * time.Millisecond, 4, 3},   // loaded: lowers
		{"", 400 * time.Millisecond, 1.5, 2},           // the lab's first
	}
	for i, st := range steps {
		load = st.load
		if err := g.Acquire(context.Background()); err != nil {
			t.Fatal(err)
		}
		g.Release(st.server, st.startup, true)
		if got := g.Allowed(); got != st.want {
			t.Errorf("step %d (%q, %v, load %v): %d at once, want %d", i, st.server, st.startup, st.load, got, st.want)
		}
	}
	if n := strings.Count(said.String(), "slow on its own"); n != 1 {
		t.Errorf("said %d times that the server is slow on its own, want once:\n%s", n, said.String())
	}
	if !strings.Contains(said.String(), "server everything takes 522ms to start (its quickest 522ms") {
		t.Errorf("said:\n%s", said.String())
	}
}
