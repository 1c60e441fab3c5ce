package probe

import (
	"context"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/internal/load"
)

// Probe checks one server in both eras, each on a fresh connection (for
// stdio, two processes at once), Repeat times, and returns what the first
// run of each era showed with the startup statistics of all runs and, for
// stdio, of the extra samples started alongside the first run
// (Options.Samples). It returns early only when ctx is done.
func Probe(ctx context.Context, t Target, o Options) Result {
	o = o.withDefaults()
	res := Result{Target: t}
	startup := Startup{CPUs: runtime.NumCPU()}
	if s, ok := load.Now(); ok {
		startup.Load = s.One
	}
	if t.Transport == TransportStdio {
		res.Target.EnvNames = fingerprint.EnvNames(os.Environ(), t.Env) // as spawn starts it
	}
	if t.Transport != TransportStdio && t.Transport != TransportHTTP {
		detail := "transport " + t.Transport + " is not supported by check (stdio and Streamable HTTP are)"
		res.Legacy = EraResult{Era: Legacy, Method: Legacy.Method(), Outcome: OutcomeNoStart, Detail: detail}
		res.Modern = EraResult{Era: Modern, Method: Modern.Method(), Outcome: OutcomeNoStart, Detail: detail}
		res.Survival = survival(res.Modern)
		return res
	}
	var legacy, modern []time.Duration
	calls := o.Calls
	for i := range o.Repeat {
		// The tools are called on the first run only: the runs after it
		// time the start-up, and a tool's side effects are not repeated.
		o.Calls = nil
		if i == 0 {
			o.Calls = calls
		}
		var l, m EraResult
		var s Survival
		switch t.Transport {
		case TransportHTTP:
			l, m, s = probeHTTP(ctx, t, o)
		default:
			n := 0
			if i == 0 {
				n = o.Samples // beside the first run only
			}
			var sampled []time.Duration
			l, m, s, sampled = probeStdio(ctx, t, o, n)
			legacy = append(legacy, sampled...)
		}
		if s.Verdict == SurvivalExit && l.Outcome == OutcomeExit {
			s.Verdict = SurvivalExitAtStart
			s.Detail = "it exits without a reply to initialize on a fresh process too: " + l.Detail
		}
		if i == 0 {
			res.Legacy, res.Modern, res.Survival = l, m, s
		}
		if l.Answered() {
			legacy = append(legacy, l.FirstReply.D())
		}
		if m.Answered() {
			modern = append(modern, m.FirstReply.D())
		}
		if ctx.Err() != nil || (!l.Answered() && !m.Answered()) {
			break // nothing to time
		}
	}
	startup.Legacy, startup.Modern = statsOf(legacy), statsOf(modern)
	res.Startup = startup
	return res
}

// probeStdio runs both eras at once, a process each, and n start-up
// samples beside them (sampleStartup) within the eras' timeout, and
// returns the samples' times with the eras'.
func probeStdio(ctx context.Context, t Target, o Options, n int) (l, m EraResult, s Survival, samples []time.Duration) {
	lr, mr := make(chan struct{}), make(chan struct{})
	var legacyAt atomic.Int64 // the legacy era's first reply, from spawn
	lc := make(chan EraResult, 1)
	go func() {
		lc <- stdioLegacy(ctx, t, o, onceAt(func(at time.Duration) { legacyAt.Store(int64(at)); close(lr) }))
	}()
	sctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	wait := func() []time.Duration { return nil }
	if n > 0 {
		// A start-up well inside every wait needs no distribution.
		above := func() (time.Duration, bool) { return 0, true }
		if o.SampleAbove != nil {
			above = sync.OnceValues(o.SampleAbove)
		}
		quick := func() bool { d, ok := above(); return !ok || time.Duration(legacyAt.Load()) < d }
		wait = sampleStartup(sctx, t, o, n, quick, lr, mr)
	}
	m, s = stdioModern(ctx, t, o, onceAt(func(time.Duration) { close(mr) }), func() EraResult { l = <-lc; lc <- l; return l })
	l = <-lc
	if !l.Answered() && !m.Answered() {
		cancel() // nothing answers: no sample will
	}
	return l, m, s, wait()
}

// probeHTTP runs both eras on one server. The probe goes last, since it may
// bring the server down, except when the server has not answered
// initialize within silentAfter: then the probe is sent alongside, so that
// a silent server costs one timeout, not two.
func probeHTTP(ctx context.Context, t Target, o Options) (l, m EraResult, s Survival) {
	handshook, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		l = httpLegacy(ctx, t, o, func() { close(handshook) })
	}()
	wait := time.NewTimer(silentAfter(o.Timeout))
	defer wait.Stop()
	select {
	case <-done:
	case <-handshook:
		<-done
	case <-wait.C:
	case <-ctx.Done():
	}
	m, s = httpModern(ctx, t, o, func() EraResult { <-done; return l })
	<-done
	return l, m, s
}

// onceAt is f, called once at most.
func onceAt(f func(time.Duration)) func(time.Duration) {
	var once sync.Once
	return func(at time.Duration) { once.Do(func() { f(at) }) }
}

// silentAfter is how long the HTTP probe waits for the legacy handshake
// before it stops keeping the order of the eras.
func silentAfter(timeout time.Duration) time.Duration { return min(timeout/4, time.Second) }
