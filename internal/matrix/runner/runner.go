package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// A Runner runs a matrix on clients.
type Runner struct {
	Clients []client.Client
	Matrix  *matrix.Matrix
	// Out is the evidence directory; one subdirectory per run.
	Out string
	// Jobs is how many runs go at once (at least 1).
	Jobs int
	// Resume skips runs whose evidence says they finished ok.
	Resume bool
	// Timeout bounds each run.
	Timeout time.Duration
	// Lab is the executable started as "Lab serve lab ..." by the client;
	// empty is this one.
	Lab string
	// Upstream, when set, makes every fake forward to a real API (live).
	Upstream *fakeapi.Upstream
	// Netns runs every client in a loopback-only network namespace with a
	// resolver that logs the names asked (internal/netjail; Linux, root).
	Netns bool
	// Shard, when set, runs only this machine's part of the plan.
	Shard matrix.Shard
	// Arms lists the arms each client runs in, keyed by its spec
	// (Matrix.PickArms); a client not in it runs its default arm.
	Arms map[string][]client.Arm
	// Servers maps the name of a user's server (Row.Server) to the file
	// holding its command (lab.ServerCommand), outside the evidence, since
	// a command line may carry a credential.
	Servers map[string]string
	// ServerStarts is where each of them starts, with which variables
	// (names only), for the run's record.
	ServerStarts map[string]analyze.ServerStart
	// HTTPServers maps the name of a user's Streamable HTTP server to its
	// endpoint: each run puts a recording proxy (lab.Proxy.HTTPHandler) in
	// front of it on a loopback port, and the client connects to that.
	HTTPServers map[string]HTTPServer
	// RepeatSensitive, when above a row's repeats, runs a row whose
	// result was timing-sensitive (analyze.Timing), or whose runs
	// disagreed on whether the first request had the server, again until
	// it has this many runs: its result is then a rate.
	RepeatSensitive int
	// Gate, when set, bounds the runs at once by how long their servers
	// take to start (load.Gate): a loaded machine runs fewer at once.
	Gate *load.Gate
	// Progress receives one line per finished run.
	Progress io.Writer

	// unprovisioned says why each client that could not be provisioned
	// was not (by spec): its runs are recorded as failed with that reason.
	unprovisioned map[string]error
	// reaper kills the clients' process groups if the runner dies
	// without ending them (reaper_unix.go).
	reaper *reaper
}

// A job is one planned run.
type job struct {
	client client.Client
	arm    client.Arm
	row    matrix.Row
	repeat int
	dir    string
}

// clients gives the analysis of the job's evidence the job's own client,
// which reads its own files (analyze.Clients).
func (j job) clients(string) (client.Client, error) { return j.client, nil }

// who names the job's client and, when not its default, its arm.
func (j job) who() string { return analyze.Who(j.client.Spec().String(), j.arm.Name, j.arm.Default) }

// Plan lists the runs in order: client, arm, row, repeat.
func (r *Runner) plan() []job {
	var jobs []job
	for _, c := range r.Clients {
		arms, ok := r.Arms[c.Spec().String()]
		if !ok {
			arms = []client.Arm{client.DefaultArm(c)}
		}
		for _, arm := range arms {
			key := evidence.ArmClient(c.Spec().String(), arm.Name, arm.Default)
			for _, row := range r.Matrix.Rows {
				if !row.For(c.Spec().Name) {
					continue
				}
				row = r.Matrix.Resolved(row)
				for i := 1; i <= row.Repeats; i++ {
					jobs = append(jobs, job{client: c, arm: arm, row: row, repeat: i, dir: string(evidence.OutDir(r.Out).Run(key, row.Name, i))})
				}
			}
		}
	}
	if r.Shard.N > 0 {
		var mine []job
		for i, j := range jobs {
			if r.Shard.Has(i) {
				mine = append(mine, j)
			}
		}
		jobs = mine
	}
	return jobs
}

// Run provisions the clients, then runs every planned run, Jobs at a time.
// When ctx is cancelled, runs in flight are stopped and left unfinished
// (so -resume redoes them); finished runs keep their evidence. It returns
// the results of every finished run, in plan order.
func (r *Runner) Run(ctx context.Context) ([]analyze.Result, Stats, error) {
	var st Stats
	start, cpu := time.Now(), selfCPU()
	progress := r.progress()
	if r.Lab == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, st, fmt.Errorf("finding this executable for the lab server: %w", err)
		}
		r.Lab = exe
	}
	if err := r.provision(ctx, progress); err != nil {
		return nil, st, err
	}
	if err := os.MkdirAll(r.Out, 0o755); err != nil {
		return nil, st, fmt.Errorf("creating %s: %w", r.Out, err)
	}
	CleanTemp()
	if err := r.dropDirect(progress); err != nil {
		return nil, st, err
	}
	r.reaper = startReaper()
	defer r.reaper.close()
	jobs := r.plan()
	p := newProgress(progress, len(jobs), start)
	results := r.runJobs(ctx, jobs, &st, p)
	if more := r.sensitiveRepeats(jobs, results); len(more) > 0 && ctx.Err() == nil {
		fmt.Fprintf(progress, "repeating %d runs of rows whose results are timing-sensitive, to %d runs each (-repeat-sensitive)\n", len(more), r.RepeatSensitive)
		p.total += len(more)
		jobs = append(jobs, more...)
		results = append(results, r.runJobs(ctx, more, &st, p)...)
	}
	st.Wall, st.RunnerCPU = time.Since(start), selfCPU()-cpu
	var out []analyze.Result
	for _, i := range planOrder(jobs) {
		if res := results[i]; res != nil {
			out = append(out, *res)
		}
	}
	if ctx.Err() != nil {
		return out, st, fmt.Errorf("interrupted after %d of %d runs: %w", st.Runs+st.Skipped, len(jobs), ctx.Err())
	}
	return out, st, nil
}

// provision makes every client runnable. A client that cannot be (its
// version does not install, or has no executable) is left out, said on
// progress and noted in r.unprovisioned, so that its runs are recorded
// as failed with the reason while the other clients run: one release
// that does not install must not hide what the others do. When no
// client could be provisioned, or ctx ended, the error says why.
func (r *Runner) provision(ctx context.Context, progress io.Writer) error {
	r.unprovisioned = map[string]error{}
	var errs []error
	for _, c := range r.Clients {
		err := c.Provision(ctx, progress)
		if err == nil {
			continue
		}
		err = fmt.Errorf("provisioning %s: %w", c.Spec(), err)
		if ctx.Err() != nil {
			return err
		}
		r.unprovisioned[c.Spec().String()] = err
		errs = append(errs, err)
		fmt.Fprintf(progress, "%v\n(its runs are recorded as failed; the other clients run)\n", err)
	}
	if len(errs) > 0 && len(errs) == len(r.Clients) {
		return errors.Join(errs...)
	}
	return nil
}

// runJobs runs jobs, Jobs at a time (those of a resumed run that finished
// ok are read, not run), counting them in st, and returns their results
// by the jobs' index (nil for a run interrupted).
func (r *Runner) runJobs(ctx context.Context, jobs []job, st *Stats, p *progress) []*analyze.Result {
	results := make([]*analyze.Result, len(jobs))
	var todo []int
	for i, j := range jobs {
		if r.Resume {
			if rec, err := analyze.ReadRecord(j.dir); err == nil && rec.Status == analyze.StatusOK {
				if res, err := analyze.Run(j.dir, j.clients); err == nil {
					results[i] = &res
					st.Skipped++
					p.skip()
					continue
				}
			}
		}
		// A run a killed runner left without a record goes now, not when
		// its turn comes.
		if _, err := os.Stat(evidence.RunDir(j.dir).Record()); errors.Is(err, os.ErrNotExist) {
			os.RemoveAll(j.dir)
		}
		todo = append(todo, i)
	}
	n := r.Jobs
	if n < 1 {
		n = 1
	}
	var mu sync.Mutex
	runJob := func(i int) {
		j := jobs[i]
		if err := r.unprovisioned[j.client.Spec().String()]; err != nil {
			p.start(j)
			res := recordRunnerFailure(j, err.Error())
			mu.Lock()
			st.Runs++
			st.Failed++
			results[i] = &res
			mu.Unlock()
			p.done(j, res, nil)
			return
		}
		if r.Gate != nil {
			if r.Gate.Acquire(ctx) != nil {
				return
			}
		}
		p.start(j)
		res, rec, err := r.runOne(ctx, j)
		if r.Gate != nil {
			// Over HTTP the lab listens before the client starts: its
			// "start-up" to its first reply is the client's own boot,
			// which no fewer runs at once would shorten.
			startup, known := time.Duration(0), res.Timing.StartupMS != nil && rec.Transport != matrix.TransportHTTP
			if known {
				startup = ms(*res.Timing.StartupMS)
			}
			r.Gate.Release(rec.Row.Server, startup, known)
		}
		mu.Lock()
		switch {
		case errors.Is(err, errInterrupted):
			st.Interrupted++
		case err != nil:
			// The runner itself failed (no dir, no port): the run is
			// still recorded, as failed with the reason.
			st.Runs++
			st.Failed++
			res = recordRunnerFailure(j, "runner: "+err.Error())
			results[i] = &res
			err = nil
		default:
			st.Runs++
			if res.Status != analyze.StatusOK {
				st.Failed++
			}
			st.ClientTime += ms(rec.ClientMS)
			st.addCPU(j.who(), ms(rec.ClientCPUMS))
			st.RunnerTime += ms(rec.SetupMS + rec.TeardownMS)
			results[i] = &res
		}
		mu.Unlock()
		p.done(j, res, err)
	}
	waiting, busy := splitWaiting(jobs, todo)
	schedule(ctx, n, waiting, busy, runJob)
	return results
}

// sensitiveRepeats plans the runs -repeat-sensitive adds: for every
// client, arm and row with a timing-sensitive result among its runs (or
// runs that disagree on whether the first request had the server), more
// runs up to RepeatSensitive in all, so that its result is a rate.
func (r *Runner) sensitiveRepeats(jobs []job, results []*analyze.Result) []job {
	if r.RepeatSensitive <= 0 {
		return nil
	}
	type group struct {
		last      job
		sensitive bool
		had       map[bool]bool
	}
	var order []string
	groups := map[string]*group{}
	for i, j := range jobs {
		key := filepath.Dir(j.dir) // the row's directory
		g, ok := groups[key]
		if !ok {
			g = &group{had: map[bool]bool{}}
			groups[key] = g
			order = append(order, key)
		}
		if j.repeat > g.last.repeat {
			g.last = j
		}
		if res := results[i]; res != nil && res.Status == analyze.StatusOK {
			g.sensitive = g.sensitive || res.Timing.Sensitive
			g.had[res.Timing.HadServer] = true
		}
	}
	var more []job
	for _, key := range order {
		g := groups[key]
		if !g.sensitive && len(g.had) < 2 {
			continue
		}
		for i := g.last.repeat + 1; i <= r.RepeatSensitive; i++ {
			j := g.last
			j.repeat, j.dir = i, filepath.Join(key, fmt.Sprint(i))
			more = append(more, j)
		}
	}
	return more
}

// planOrder lists the indexes of jobs in plan order (client, arm, row,
// repeat): the first jobs are planned in that order, and a repeat added
// later goes after the last run of its row.
func planOrder(jobs []job) []int {
	idx := make([]int, len(jobs))
	first := map[string]int{}
	for i, j := range jobs {
		idx[i] = i
		if _, ok := first[filepath.Dir(j.dir)]; !ok {
			first[filepath.Dir(j.dir)] = i
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ja, jb := jobs[idx[a]], jobs[idx[b]]
		ga, gb := first[filepath.Dir(ja.dir)], first[filepath.Dir(jb.dir)]
		if ga != gb {
			return ga < gb
		}
		return ja.repeat < jb.repeat
	})
	return idx
}

// waitingThreshold is how long a server must hold its reply on purpose
// for its run to count as waiting (see splitWaiting).
const waitingThreshold = time.Second

// schedule runs every index of waiting and busy through run, and returns
// when all have returned. Busy runs go n at a time (-j). Runs whose server
// holds its reply on purpose spend most of their time waiting: they start
// first, in a pool of their own of 2n, so they neither finish last nor keep
// a busy slot idle while they sleep; the pool is bounded because a client's
// start-up is not waiting (Kilo Code CLI spends ~30 s of CPU before its
// first request), and eighteen late-server runs of the cross-client matrix
// starting at once timed out on a loaded machine. Once ctx is done no run
// starts.
func schedule(ctx context.Context, n int, waiting, busy []int, run func(int)) {
	var wg sync.WaitGroup
	pool := func(size int, idx []int) {
		next := make(chan int)
		for w := 0; w < min(size, len(idx)); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					run(i)
				}
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(next)
			for _, i := range idx {
				if ctx.Err() != nil {
					return
				}
				next <- i
			}
		}()
	}
	pool(2*n, waiting)
	pool(n, busy)
	wg.Wait()
}

// splitWaiting parts the runs to do into those whose lab holds a reply for
// at least waitingThreshold (their client mostly waits) and the rest, each
// in plan order.
func splitWaiting(jobs []job, todo []int) (waiting, busy []int) {
	for _, i := range todo {
		if jobs[i].row.Held() >= waitingThreshold {
			waiting = append(waiting, i)
		} else {
			busy = append(busy, i)
		}
	}
	return waiting, busy
}
