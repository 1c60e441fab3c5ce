package probe

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// DefaultSamples is how many extra start-up samples a stdio server gets
// when Options.Samples is zero.
const DefaultSamples = 3

// NoSamples, as Options.Samples, takes no extra start-up sample.
const NoSamples = -1

// sampleSlots bounds the sample processes alive at once, over every probe
// of this process: one a CPU, beside each probe's two eras.
var sampleSlots = make(chan struct{}, runtime.NumCPU())

// sampleStartup starts n processes of t alongside the eras' first run,
// each only to time spawn to the first reply of initialize, no more than
// one a CPU at once (sampleSlots), and stops each as an era's process is
// stopped. It returns a function that waits for them and gives the times
// of those that got a JSON-RPC reply. A sample gets no more than ctx's
// time (the caller gives them the eras' timeout, shared); once one failed
// (could not start, exited, went silent), no other starts: a server that
// does not start costs one timeout, not one a sample.
func sampleStartup(ctx context.Context, t Target, o Options, n int) (wait func() []time.Duration) {
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		times  []time.Duration
		failed = make(chan struct{})
		once   sync.Once
	)
	for range n {
		wg.Go(func() {
			select {
			case sampleSlots <- struct{}{}:
				defer func() { <-sampleSlots }()
			case <-ctx.Done():
				return
			case <-failed:
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-failed:
				return
			default:
			}
			d, ok := sampleOnce(ctx, t, o)
			if !ok {
				once.Do(func() { close(failed) })
				return
			}
			mu.Lock()
			times = append(times, d)
			mu.Unlock()
		})
	}
	return func() []time.Duration {
		wg.Wait()
		return times
	}
}

// sampleOnce spawns t, sends initialize and returns the time from spawn to
// the first reply, as an era's FirstReply; ok is false when no JSON-RPC
// reply came before ctx was done.
func sampleOnce(ctx context.Context, t Target, o Options) (time.Duration, bool) {
	p, err := spawn(t)
	if err != nil {
		return 0, false
	}
	defer p.stop()
	if _, err := p.call(ctx, 1, "initialize", o.initializeParams()); err != nil {
		return 0, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.firstReply, true
}
