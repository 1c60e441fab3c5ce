package runner

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// progress prints one line per finished run: done/total, the run, its
// outcome, elapsed time and an ETA from the mean run time so far.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	total    int
	finished int
	skipped  int
	began    time.Time
	running  int
}

func newProgress(w io.Writer, total int, start time.Time) *progress {
	return &progress{w: w, total: total, began: start}
}

func (p *progress) skip() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished++
	p.skipped++
}

func (p *progress) start(j job) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running++
}

func (p *progress) done(j job, res analyze.Result, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running--
	p.finished++
	elapsed := time.Since(p.began)
	outcome := res.Status
	if res.Reason != "" {
		outcome += " (" + res.Reason + ")"
	}
	if err != nil {
		outcome = err.Error()
	}
	outcome = untrusted.EscapeLine(outcome) // a failed run's reason quotes the server's stderr
	eta := "?"
	if ran := p.finished - p.skipped; ran > 0 {
		left := p.total - p.finished
		eta = (elapsed / time.Duration(ran) * time.Duration(left)).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "[%d/%d] %s %s #%d: %s in %.1fs (CPU %.1fs) · elapsed %s · ETA %s\n",
		p.finished, p.total, j.who(), j.row.Name, j.repeat, outcome, res.ClientMS/1000, res.ClientCPUMS/1000,
		elapsed.Round(time.Second), eta)
}
