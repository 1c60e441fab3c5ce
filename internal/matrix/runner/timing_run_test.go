package runner

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/lab"
)

// TestRunTimesTheServer: every run records the server's start (the lab's
// start entry), its readiness, the first request and the load, and a
// result the lab's start-up decided is timing-sensitive. The fake client
// waits 1 s for its server, then sends without it and lets a late server
// join its second request.
func TestRunTimesTheServer(t *testing.T) {
	budget := map[string]string{"FAKE_WAIT": "1s", "FAKE_TURNS": "2"}
	withEnv := func(extra map[string]string) map[string]string {
		env := map[string]string{}
		for k, v := range budget {
			env[k] = v
		}
		for k, v := range extra {
			env[k] = v
		}
		return env
	}
	m := testMatrix(
		matrix.Row{Name: "quick", Label: "not held", Args: lab.Args{Instr: "ascii:1000"}, Env: withEnv(nil)},
		// Held well past the budget: the hold decides, not the start-up,
		// unless the machine made the start-up itself long.
		matrix.Row{Name: "held", Label: "held 2.5 s", Args: lab.Args{Instr: "ascii:1000", InitDelay: 2500 * time.Millisecond}, Env: withEnv(map[string]string{"FAKE_GAP": "6s"})},
		// A lab that burns 1.5 s of CPU before it serves starts later than
		// the budget with no hold at all: the race the atlas must not
		// take for a release.
		matrix.Row{Name: "slow-start", Label: "slow start", Args: lab.Args{Instr: "ascii:1000"}, Env: withEnv(map[string]string{fakeclient.LabCPUEnv: "1500ms"})},
	)
	m.Repeats = 1
	r := newRunner(t, m, fakeClient("1", nil))
	results, st, err := r.Run(context.Background())
	if err != nil || st.Failed != 0 {
		t.Fatalf("%v, stats %+v", err, st)
	}
	byRow := map[string]analyze.Result{}
	for _, res := range results {
		byRow[res.Row] = res
		tm := res.Timing
		if res.Row == "slow-start" {
			continue // its lab may not have got as far as its log
		}
		if tm.ServerStart == nil || tm.ServerReady == nil || tm.FirstRequest == nil || tm.StartupMS == nil || tm.LeadMS == nil {
			t.Fatalf("%s: timing not recorded: %+v", res.Row, tm)
		}
		if *tm.StartupMS < 0 {
			t.Errorf("%s: start-up %v ms", res.Row, *tm.StartupMS)
		}
		if runtime.GOOS == "linux" && (tm.Load == nil || tm.Load.Start.CPUs < 1) {
			t.Errorf("%s: load not recorded: %+v", res.Row, tm.Load)
		}
	}
	// A lab up well within the budget is had, and that is no race; on a
	// loaded machine (CI's -race run) the client's own start can still
	// miss it, and then the run must say it raced, never report the miss
	// as what the client does.
	quick := byRow["quick"].Timing
	if startup := ms(*quick.StartupMS); startup < time.Second && quick.HadServer == quick.Sensitive {
		t.Errorf("quick: a lab up in %s of a 1 s budget: had it %v, sensitive %v (%s)", startup, quick.HadServer, quick.Sensitive, quick.Why)
	}

	held := byRow["held"]
	if held.First.Best() != nil || held.Observation.ServerStatus != "pending" {
		t.Errorf("held: text in the first request or status %q: the fake waits 1 s, the lab held 2.5 s", held.Observation.ServerStatus)
	}
	// A start-up over 10% of the hold could have changed the outcome.
	if want := ms(*held.Timing.StartupMS) > 250*time.Millisecond; held.Timing.Sensitive != want {
		t.Errorf("held: sensitive %v (%s) with a start-up of %v ms; want %v", held.Timing.Sensitive, held.Timing.Why, *held.Timing.StartupMS, want)
	}
	if len(held.Requests) != 2 || held.Requests[1].Best() == nil {
		t.Errorf("held: %d requests, the second without the text: a late server joins the next request", len(held.Requests))
	}

	slow := byRow["slow-start"]
	if !slow.Timing.Sensitive || slow.Timing.HadServer || slow.Observation.ServerStatus != "pending" {
		t.Errorf("slow-start: a lab 1.5 s slow to start, unheld, past a 1 s budget: status %q, sensitive %v (%q)", slow.Observation.ServerStatus, slow.Timing.Sensitive, slow.Timing.Why)
	}
	// The kernel dates a process's start and the time since boot in clock
	// ticks of 10 ms (lab.kernelStart), so the start-up measured may be
	// short of the real one by up to two ticks.
	if s := slow.Timing.StartupMS; s != nil && ms(*s) < 1500*time.Millisecond-20*time.Millisecond {
		t.Errorf("slow-start: start-up %v ms, want the 1.5 s the lab burned at least, less the kernel clock's two ticks", *s)
	}
}

// TestRepeatSensitive: -repeat-sensitive runs again only the rows whose
// result was timing-sensitive, until they have that many runs, and returns
// every run in plan order.
func TestRepeatSensitive(t *testing.T) {
	env := map[string]string{"FAKE_WAIT": "300ms"}
	m := testMatrix(
		matrix.Row{Name: "quick", Label: "not held", Args: lab.Args{Instr: "ascii:1000"}},
		// A lab slow to start, unheld, past the budget: sensitive.
		matrix.Row{Name: "slow-start", Label: "slow start", Args: lab.Args{Instr: "ascii:1000"}, Env: map[string]string{fakeclient.LabCPUEnv: "600ms"}},
	)
	m.Repeats = 1
	r := newRunner(t, m, fakeClient("1", env))
	r.RepeatSensitive = 3
	results, st, err := r.Run(context.Background())
	if err != nil || st.Failed != 0 {
		t.Fatalf("%v, stats %+v", err, st)
	}
	var got []string
	for _, res := range results {
		got = append(got, fmt.Sprintf("%s #%d", res.Row, res.Repeat))
	}
	want := []string{"quick #1", "slow-start #1", "slow-start #2", "slow-start #3"}
	if results[0].Timing.Sensitive {
		// The quick lab itself was slower than the budget on this
		// machine: it is repeated too, and that is right.
		want = []string{"quick #1", "quick #2", "quick #3", "slow-start #1", "slow-start #2", "slow-start #3"}
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("runs mismatch (-want +got):\n%s", d)
	}
	if st.Runs != len(want) {
		t.Errorf("stats count %d runs, want %d", st.Runs, len(want))
	}
}

// TestGateLowersParallelism: servers slower to start than a quarter of
// the smallest budget lower the runs at once to one, and the runner says
// so; the runs after that do not overlap.
func TestGateLowersParallelism(t *testing.T) {
	slow := map[string]string{fakeclient.LabCPUEnv: "400ms"} // a start-up of 400 ms at least
	var rows []matrix.Row
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		rows = append(rows, matrix.Row{Name: n, Label: n, Args: lab.Args{Instr: "ascii:100"}, Env: slow})
	}
	m := testMatrix(rows...)
	m.Repeats = 1
	r := newRunner(t, m, fakeClient("1", nil))
	var said strings.Builder
	r.Gate = load.NewGate(2, 400*time.Millisecond, 0, &said) // start-ups held under 100 ms
	results, st, err := r.Run(context.Background())
	if err != nil || st.Failed != 0 || len(results) != 5 {
		t.Fatalf("%v, stats %+v", err, st)
	}
	if r.Gate.Allowed() != 1 || !strings.Contains(said.String(), "1 run(s) at once from now") {
		t.Fatalf("allowed %d; said:\n%s", r.Gate.Allowed(), said.String())
	}
	// The last three began after the first two ended (one at a time from
	// the first slow start): none overlaps another.
	type span struct{ from, to time.Time }
	var spans []span
	for _, res := range results[2:] {
		rec, err := analyze.ReadRecord(res.Dir)
		if err != nil {
			t.Fatal(err)
		}
		spans = append(spans, span{rec.Start, rec.Start.Add(time.Duration((rec.SetupMS + rec.ClientMS + rec.TeardownMS) * float64(time.Millisecond)))})
	}
	for i := range spans {
		for j := range spans {
			if i != j && spans[i].from.Before(spans[j].from) && spans[j].from.Before(spans[i].to) {
				t.Errorf("runs %d and %d overlap at one run at a time", i+3, j+3)
			}
		}
	}
}
