package load

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// A Gate bounds how many runs go at once by how long the servers they
// start take to start: a measured start-up must stay well under the
// smallest budget the runs measure (Limit, a quarter of it), or which side
// of that budget a run lands on is the machine's doing. A run whose server
// took longer than Limit to start lowers the bound by one, down to one; a
// run whose server started in under half of it raises it again, up to Max.
// With Wait set, a run about to start while the bound is one and the last
// start-up was over Limit first waits, up to Wait, for the load average to
// fall to at most one task per CPU. A server whose start-up is over Limit
// on a machine at most one task per CPU loaded, and no more than half
// again its quickest start seen, is slow on its own (a user's node server
// takes 300-600 ms to start however few runs go at once): it lowers the
// bound no further, and that is said once. Every change is said on Say.
type Gate struct {
	Max   int
	Limit time.Duration
	Wait  time.Duration
	Say   io.Writer
	// now and sample are the clock and the load, for tests.
	sample func() (Sample, bool)
	pause  func(ctx context.Context, d time.Duration) error

	mu      sync.Mutex
	cond    *sync.Cond
	allowed int
	running int
	slow    bool // the last start-up measured was over Limit
	// quickest is each server's quickest start-up seen; own the servers
	// said to be slow on their own.
	quickest map[string]time.Duration
	own      map[string]bool
}

// NewGate is a gate for max runs at once that keeps start-ups under a
// quarter of budget, waiting up to wait for the load to fall when it
// cannot; say receives what it does.
func NewGate(max int, budget, wait time.Duration, say io.Writer) *Gate {
	g := &Gate{Max: max, Limit: budget / 4, Wait: wait, Say: say, allowed: max, sample: Now, pause: sleep,
		quickest: map[string]time.Duration{}, own: map[string]bool{}}
	g.cond = sync.NewCond(&g.mu)
	if say == nil {
		g.Say = io.Discard
	}
	return g
}

// Acquire waits for a run's turn: until fewer than the bound run, and,
// when the machine was found too loaded at one run at a time, for the
// load to fall (up to Wait).
func (g *Gate) Acquire(ctx context.Context) error {
	g.mu.Lock()
	for g.running >= g.allowed {
		if ctx.Err() != nil {
			g.mu.Unlock()
			return ctx.Err()
		}
		g.cond.Wait()
	}
	g.running++
	waitLoad := g.slow && g.allowed == 1 && g.Wait > 0
	g.mu.Unlock()
	if waitLoad {
		g.waitForLoad(ctx)
	}
	return ctx.Err()
}

// waitForLoad polls the load average until it is at most one task per
// CPU, or Wait has passed, and says which.
func (g *Gate) waitForLoad(ctx context.Context) {
	deadline := time.Now().Add(g.Wait)
	s, ok := g.sample()
	if !ok || s.PerCPU() <= 1 {
		return
	}
	fmt.Fprintf(g.Say, "load: %s, the lab starting slower than %s: waiting up to %s for it to fall\n", s, g.Limit, g.Wait)
	for time.Now().Before(deadline) {
		if g.pause(ctx, 5*time.Second) != nil {
			return
		}
		if s, ok = g.sample(); ok && s.PerCPU() <= 1 {
			fmt.Fprintf(g.Say, "load: %s: going on\n", s)
			return
		}
	}
	fmt.Fprintf(g.Say, "load: still %s after %s: going on; runs that land near a budget are marked timing-sensitive\n", s, g.Wait)
}

// Release ends a run whose server (named server; "" for the lab) took
// startup to start (known false when the run did not measure it) and
// adjusts the bound.
func (g *Gate) Release(server string, startup time.Duration, known bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running--
	defer g.cond.Broadcast()
	if !known {
		return
	}
	quickest, seen := g.quickest[server]
	if !seen || startup < quickest {
		g.quickest[server] = startup
	}
	switch {
	case startup > g.Limit && seen && startup <= quickest*3/2 && g.quiet():
		g.slow = false
		if !g.own[server] {
			g.own[server] = true
			fmt.Fprintf(g.Say, "load: server %s takes %s to start (its quickest %s; %s): slow on its own, over %s, which fewer runs at once would not change; %d run(s) at once; runs near a budget are marked timing-sensitive\n",
				orLab(server), startup.Round(time.Millisecond), g.quickest[server].Round(time.Millisecond), loadText(g.sample), g.Limit.Round(time.Millisecond), g.allowed)
		}
	case startup > g.Limit:
		g.slow = true
		if g.allowed > 1 {
			g.allowed--
			fmt.Fprintf(g.Say, "load: a server took %s to start, over %s (a quarter of the smallest budget measured; %s): %d run(s) at once from now\n",
				startup.Round(time.Millisecond), g.Limit.Round(time.Millisecond), loadText(g.sample), g.allowed)
		}
	case startup < g.Limit/2:
		g.slow = false
		if g.allowed < g.Max {
			g.allowed++
			fmt.Fprintf(g.Say, "load: a server started in %s: %d run(s) at once from now\n", startup.Round(time.Millisecond), g.allowed)
		}
	}
}

// quiet reports whether the load average is at most one task per CPU
// (false when it cannot be read).
func (g *Gate) quiet() bool {
	s, ok := g.sample()
	return ok && s.PerCPU() <= 1
}

func orLab(server string) string {
	if server == "" {
		return "lab"
	}
	return server
}

// Allowed is how many runs may go at once now.
func (g *Gate) Allowed() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.allowed
}

func loadText(sample func() (Sample, bool)) string {
	if s, ok := sample(); ok {
		return s.String()
	}
	return "load average not measured"
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
