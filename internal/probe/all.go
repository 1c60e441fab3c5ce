package probe

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/instrlab/instrlab/internal/untrusted"
)

// maxParallel bounds the servers All checks at once; each runs its two
// eras at once, so twice as many processes.
const maxParallel = 4

// All probes the targets concurrently, at most four at once, with probe
// (Probe when nil), and returns their results in order, as measured: the
// report is redacted when it is printed (assess.Report.Redacted). A line
// for each goes to progress as it starts, redacted and escaped.
func All(ctx context.Context, ts []Target, o Options, progress io.Writer, probe func(context.Context, Target, Options) Result) []Result {
	if probe == nil {
		probe = Probe
	}
	results := make([]Result, len(ts))
	sem := make(chan struct{}, maxParallel)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, t := range ts {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			shown := t.Redacted(t.Redactor())
			mu.Lock()
			fmt.Fprintf(progress, "instrlab: checking %s (%s)\n", untrusted.EscapeLine(shown.Name), untrusted.EscapeLine(shown.String()))
			if t.NameFrom != "" {
				fmt.Fprintf(progress, "instrlab: %s is named after %s; -name names it otherwise\n", untrusted.EscapeLine(shown.Name), untrusted.EscapeLine(t.NameFrom))
			}
			mu.Unlock()
			results[i] = probe(ctx, t, o)
		})
	}
	wg.Wait()
	return results
}
