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
// each only to time spawn to the first reply of initialize, and stops each
// as an era's process is stopped. It returns a function that waits for
// them and gives the times of those that got a JSON-RPC reply.
//
// As many start at once as there are CPUs beside the eras' two processes;
// the others once every channel of after is closed (the eras' first
// replies): a start-up is CPU work, and samples that took the eras' CPUs
// would time the contention, the eras' own included. No more sample
// processes are alive at once than CPUs (sampleSlots). A sample gets no
// more than ctx's time (the caller gives them the eras' timeout, shared);
// once one failed (could not start, exited, went silent), no other
// starts: a server that does not start costs one timeout, not one a
// sample. A sample that waited for the eras does not start when quick
// says their start-up needs none (Options.SampleAbove).
func sampleStartup(ctx context.Context, t Target, o Options, n int, quick func() bool, after ...<-chan struct{}) (wait func() []time.Duration) {
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		times  []time.Duration
		failed = make(chan struct{})
		once   sync.Once
	)
	early := spareCPUs()
	for k := range n {
		wg.Go(func() {
			if k >= early {
				for _, c := range after {
					select {
					case <-c:
					case <-ctx.Done():
						return
					case <-failed:
						return
					}
				}
				if quick() {
					return
				}
			}
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

// spareCPUs is how many samples start with the eras: the CPUs beside
// theirs.
var spareCPUs = func() int { return max(0, runtime.NumCPU()-2) }

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
