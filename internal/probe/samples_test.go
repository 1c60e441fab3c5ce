package probe

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSamplesCount: the samples join the legacy era's start-up, DefaultSamples
// of them by default, none with NoSamples; the modern era's is its own.
func TestSamplesCount(t *testing.T) {
	for _, tt := range []struct {
		samples, repeat int
		legacy, modern  int
	}{
		{0, 1, 1 + DefaultSamples, 1},
		{2, 1, 3, 1},
		{NoSamples, 1, 1, 1},
		{2, 2, 4, 2}, // alongside the first run only
	} {
		o := Options{Timeout: quick.Timeout, Samples: tt.samples, Repeat: tt.repeat}
		r := Probe(context.Background(), testServer(t, "-eras legacy,modern"), o)
		got := []int{r.Startup.Legacy.N, r.Startup.Modern.N}
		if diff := cmp.Diff([]int{tt.legacy, tt.modern}, got); diff != "" {
			t.Errorf("samples %d, repeat %d: legacy and modern n mismatch (-want +got):\n%s", tt.samples, tt.repeat, diff)
		}
		if r.Startup.CPUs != runtime.NumCPU() {
			t.Errorf("cpus %d, want %d", r.Startup.CPUs, runtime.NumCPU())
		}
	}
}

// TestSampleAbove: a server whose first reply came sooner than
// SampleAbove gets no sample beyond the spare CPUs' (none on two); one
// that came later gets them all.
func TestSampleAbove(t *testing.T) {
	defer func(f func() int) { spareCPUs = f }(spareCPUs)
	spareCPUs = func() int { return 0 }
	// SampleAbove saying there is no wait to judge by: none.
	o := Options{Timeout: quick.Timeout, SampleAbove: func() (time.Duration, bool) { return 0, false }}
	if r := Probe(context.Background(), testServer(t, "-eras legacy,modern -init-delay 100ms"), o); r.Startup.Legacy.N != 1 {
		t.Errorf("no wait to judge by: legacy n %d, want 1", r.Startup.Legacy.N)
	}
	for _, tt := range []struct {
		above time.Duration
		delay string
		n     int
	}{
		{time.Hour, "", 1},
		{50 * time.Millisecond, "-init-delay 100ms", 1 + DefaultSamples},
		{0, "", 1 + DefaultSamples},
	} {
		o := Options{Timeout: quick.Timeout, SampleAbove: func() (time.Duration, bool) { return tt.above, true }}
		r := Probe(context.Background(), testServer(t, strings.TrimSpace("-eras legacy,modern "+tt.delay)), o)
		if r.Startup.Legacy.N != tt.n {
			t.Errorf("above %v, %q: legacy n %d, want %d", tt.above, tt.delay, r.Startup.Legacy.N, tt.n)
		}
	}
}

// TestSamplesEnded: every sample process is ended, having exited by
// itself at the end of its input, and no more server processes are
// alive at once than a sample a CPU beside the two eras, even with more
// samples than CPUs.
func TestSamplesEnded(t *testing.T) {
	dir := t.TempDir()
	o := Options{Timeout: quick.Timeout, Samples: runtime.NumCPU() + 2}
	r := Probe(context.Background(), testServer(t, "count "+dir+" -eras legacy,modern -init-delay 200ms"), o)
	if want := 1 + o.Samples; r.Startup.Legacy.N != want {
		t.Errorf("legacy n %d, want %d", r.Startup.Legacy.N, want)
	}
	live, _ := filepath.Glob(filepath.Join(dir, "live-*"))
	if len(live) > 0 {
		t.Errorf("processes that did not end by themselves: %q", live)
	}
	seen, _ := filepath.Glob(filepath.Join(dir, "seen-*"))
	if want := 2 + o.Samples; len(seen) != want {
		t.Errorf("%d processes started, want %d", len(seen), want)
	}
	most := 0
	for _, f := range seen {
		b, _ := os.ReadFile(f)
		n, _ := strconv.Atoi(string(b))
		most = max(most, n)
		pid, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(f), "seen-"))
		if runningPid(pid) {
			t.Errorf("pid %d still running", pid)
		}
	}
	if bound := runtime.NumCPU() + 2; most > bound {
		t.Errorf("%d server processes alive at once, want at most %d (a CPU each and the two eras)", most, bound)
	}
}

// TestSamplesOneTimeout: a server that never answers costs one timeout,
// samples and all, however many samples wait for a CPU; one that cannot
// start costs none.
func TestSamplesOneTimeout(t *testing.T) {
	o := Options{Timeout: time.Second, Samples: 2*runtime.NumCPU() + 1}
	start := time.Now()
	r := Probe(context.Background(), testServer(t, "silent"), o)
	if took := time.Since(start); took > o.Timeout*3/2 {
		t.Errorf("a silent server took %v, want one timeout (%v)", took, o.Timeout)
	}
	if r.Startup.Legacy.N != 0 {
		t.Errorf("legacy n %d, want 0", r.Startup.Legacy.N)
	}
	start = time.Now()
	r = Probe(context.Background(), Target{Name: "x", Transport: TransportStdio, Command: "instrlab-no-such-command"}, o)
	if took := time.Since(start); took > o.Timeout/2 || r.Startup.Legacy.N != 0 {
		t.Errorf("a server that cannot start took %v and has %d samples, want no wait and none", took, r.Startup.Legacy.N)
	}
}

func TestSamplesOptions(t *testing.T) {
	if err := (Options{Timeout: time.Second, Repeat: 1, Samples: -1}).Validate(); err == nil || err.Error() != "-samples must not be negative" {
		t.Errorf("Validate(-1) = %v", err)
	}
	if err := (Options{Timeout: time.Second, Repeat: 1}).Validate(); err != nil {
		t.Errorf("Validate(0) = %v", err)
	}
	for in, want := range map[int]int{0: DefaultSamples, NoSamples: 0, 5: 5} {
		if got := (Options{Samples: in}).withDefaults().Samples; got != want {
			t.Errorf("withDefaults: samples %d gives %d, want %d", in, got, want)
		}
	}
}

// TestSamplesAfterEras: with no CPU beside the eras' two, the samples
// start once both eras got their first reply; with CPUs to spare, at once.
func TestSamplesAfterEras(t *testing.T) {
	// Long beside a process's start under load: a sample started at once
	// came 326 ms after the eras' later start in one CI run (a machine
	// busy with an npm install), which a 300 ms delay counted as late.
	const delay = time.Second
	for _, spare := range []int{0, 10} {
		old := spareCPUs
		spareCPUs = func() int { return spare }
		dir := t.TempDir()
		o := Options{Timeout: quick.Timeout, Samples: 2}
		Probe(context.Background(), testServer(t, "count "+dir+" -eras legacy,modern -init-delay "+delay.String()+" -discover-delay "+delay.String()), o)
		spareCPUs = old
		seen, _ := filepath.Glob(filepath.Join(dir, "seen-*"))
		var starts []time.Time
		for _, f := range seen {
			if fi, err := os.Stat(f); err == nil {
				starts = append(starts, fi.ModTime())
			}
		}
		if len(starts) != 4 {
			t.Fatalf("spare %d: %d processes started, want 4", spare, len(starts))
		}
		// The eras' two processes start first, the samples with them or
		// after their replies, a delay later; measured from the later of
		// the eras' starts, since load may start one of them late (257 ms
		// after the other in one CI run, which counted it among the late).
		slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
		late := 0
		for _, s := range starts {
			if s.Sub(starts[1]) >= delay*3/4 {
				late++
			}
		}
		if want := map[int]int{0: 2, 10: 0}[spare]; late != want {
			t.Errorf("spare %d: %d processes started after the eras' first replies, want %d (starts %v)", spare, late, want, starts)
		}
	}
}
