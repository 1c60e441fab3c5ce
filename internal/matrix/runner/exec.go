package runner

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/redact"
	"github.com/instrlab/instrlab/internal/stderr"
)

// statusAbort is the status execute gives a run stopped by cancellation,
// which errInterrupted then reports: it leaves no record.
const statusAbort = "interrupted"

// errInterrupted reports a run stopped by cancellation; it leaves no record.
var errInterrupted = errors.New("interrupted")

// reasonNoModelRequest is the reason of a client run that exited 0 without
// asking the model anything.
const reasonNoModelRequest = "the client exited 0 without one model request"

// DummyKey is the API key every client is given; in live mode the fake
// swaps it for the user's key on the way upstream.
const DummyKey = "sk-ant-instrlab-dummy"

// runOne runs one job in a fresh directory and analyses its evidence.
func (r *Runner) runOne(ctx context.Context, j job) (analyze.Result, analyze.Record, error) {
	t0 := time.Now()
	rec := analyze.Record{Client: j.client.Spec(), Arm: j.arm, Row: j.row, Repeat: j.repeat, Start: t0, ExitCode: -1}
	dir, err := filepath.Abs(j.dir)
	if err != nil {
		return analyze.Result{}, rec, err
	}
	if err := os.RemoveAll(dir); err != nil {
		return analyze.Result{}, rec, fmt.Errorf("clearing old evidence: %w", err)
	}
	files := evidence.RunDir(dir)
	run := &client.Run{Dir: dir, Home: files.Home(), Tmp: files.Tmp(), Work: files.Work(),
		APIKey: DummyKey, Prompt: j.row.Prompt, Model: cmp.Or(j.arm.Model, j.row.Model), MaxTurns: j.row.MaxTurns,
		Env: j.row.Env, Flags: j.row.Flags, Arm: j.arm, Timeout: j.row.Limit(r.Timeout), CallTools: len(j.row.Script) > 0}
	if rec.ModelWhy = client.UseToolModel(j.client, run); rec.ModelWhy != "" {
		rec.Model = run.Model
	}
	for _, d := range []string{run.Home, run.Tmp, run.Work, run.ClientDir()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return analyze.Result{}, rec, fmt.Errorf("creating run dirs: %w", err)
		}
	}
	fake, err := fakeapi.Start(fakeapi.Options{Dir: files.API(), Prompt: j.row.Prompt, Script: j.row.Script, Upstream: r.Upstream})
	if err != nil {
		return analyze.Result{}, rec, err
	}
	if r.Upstream != nil {
		rec.Live, rec.Upstream = true, r.Upstream.URL
	}
	run.APIURL = fake.URL
	server := client.Server{Name: j.row.ServerName(), Command: r.Lab, Args: j.row.LabArgs(files.LabLog())}
	stopHTTP := func() {}
	defer func() { stopHTTP() }() // on the early returns below; once
	if hs, ok := r.HTTPServers[j.row.Server]; ok && j.row.Server != "" {
		if j.row.InitDelay != 0 {
			fake.Close()
			return analyze.Result{}, rec, fmt.Errorf("row %q: holding the first reply (init_delay) is for stdio servers, not %s's HTTP", j.row.Name, j.row.Server)
		}
		url, stop, err := startHTTPProxy(hs, files.LabLog())
		if err != nil {
			fake.Close()
			return analyze.Result{}, rec, fmt.Errorf("row %q: %w", j.row.Name, err)
		}
		stopHTTP = stop
		server = client.Server{Name: j.row.ServerName(), URL: url}
	} else if j.row.HTTP() {
		url, stop, err := startHTTPLab(j.row.Lab(files.LabLog()))
		if err != nil {
			fake.Close()
			return analyze.Result{}, rec, fmt.Errorf("row %q: %w", j.row.Name, err)
		}
		stopHTTP = stop
		server = client.Server{Name: j.row.ServerName(), URL: url}
	} else if j.row.Server != "" {
		file, ok := r.Servers[j.row.Server]
		if !ok {
			fake.Close()
			return analyze.Result{}, rec, fmt.Errorf("row %q: no command for server %q", j.row.Name, j.row.Server)
		}
		server.Args = j.row.ProxyArgs(files.LabLog(), file)
		if st, ok := r.ServerStarts[j.row.Server]; ok {
			rec.Server = &st
		}
	}
	run.Servers = []client.Server{server}
	if len(j.row.Servers) > 0 {
		run.Servers = labServers(r.Lab, j.row, files)
	}

	rec.Transport = matrix.TransportStdio
	if server.URL != "" {
		rec.Transport = matrix.TransportHTTP
	}
	c := j.client
	if j.arm.Direct && (!r.Netns || server.URL != "") {
		fake.Close()
		return analyze.Result{}, rec, errors.New("the direct arm needs the network jail (-netns), which an HTTP server's client runs outside")
	}
	// The client of an HTTP server runs outside the jail: it must reach
	// the server on this machine's loopback.
	if r.Netns && server.URL == "" {
		jc, cleanup, err := r.jail(c, fake, run)
		if err != nil {
			fake.Close()
			return analyze.Result{}, rec, fmt.Errorf("preparing the network namespace: %w", err)
		}
		defer cleanup()
		c, rec.Netns = jc, true
	}
	before, measured := load.Now()
	// What grows while the run goes on: the model requests and the lab's
	// log (the row's Idle).
	activity := func() (bool, int64) {
		n := fake.Recorder.Len()
		var size int64
		if fi, err := os.Stat(files.LabLog()); err == nil {
			size = fi.Size()
		}
		return n > 0, int64(n) + size
	}
	status, reason, code, clientDur, cmd := r.execute(ctx, c, run, j.row.IdleLimit(), activity)
	if after, ok := load.Now(); ok && measured {
		rec.Load = &analyze.RunLoad{Start: before, End: after}
	}
	if cmd != nil {
		rec.ClientCPUMS = float64(ProcessCPU(cmd.ProcessState).Microseconds()) / 1000
	}
	stopHTTP() // the log is whole before the analysis reads it
	stopHTTP = func() {}
	rec.ClientMS = float64(clientDur.Microseconds()) / 1000
	rec.Status, rec.Reason, rec.ExitCode = status, reason, code
	if cmd != nil {
		rec.Binary, rec.Args, rec.EnvKeys = cmd.Path, cmd.Args[1:], envKeys(cmd.Env)
	}
	t1 := time.Now()
	ferr := fake.Close()
	if status == statusAbort {
		return analyze.Result{}, rec, errInterrupted
	}
	switch {
	case ferr != nil && rec.Status == analyze.StatusOK:
		rec.Status, rec.Reason = analyze.StatusFailed, "recording requests: "+ferr.Error()
	case rec.Status == analyze.StatusOK && len(fake.Recorder.Requests()) == 0:
		// Nothing the model saw was measured: not a run that worked.
		rec.Status, rec.Reason = analyze.StatusFailed, reasonNoModelRequest
	}
	if j.arm.Direct {
		if why := directFailure(fake, files, rec.Status != analyze.StatusOK); why != "" {
			rec.Status, rec.Reason = analyze.StatusFailed, joinReasons(rec.Reason, why)
		}
	}
	rec.SetupMS = float64(t1.Sub(t0).Microseconds()-clientDur.Microseconds()) / 1000
	if err := syncEvidence(files); err != nil {
		return analyze.Result{}, rec, err
	}
	if err := writeJSON(files.Record(), rec); err != nil {
		return analyze.Result{}, rec, err
	}
	res, err := analyze.Run(dir, j.clients)
	if err != nil {
		return analyze.Result{}, rec, err
	}
	rec.TeardownMS = float64(time.Since(t1).Microseconds()) / 1000
	// The result first: the record, which -resume takes as the sign of a
	// finished run, comes last.
	if err := writeJSON(files.Result(), res); err != nil {
		return analyze.Result{}, rec, err
	}
	if err := writeJSON(files.Record(), rec); err != nil {
		return analyze.Result{}, rec, err
	}
	return res, rec, nil
}

// recordRunnerFailure records a run the runner could not carry out, so
// that it shows in the table as failed, with reason, instead of missing.
func recordRunnerFailure(j job, reason string) analyze.Result {
	rec := analyze.Record{Client: j.client.Spec(), Arm: j.arm, Row: j.row, Repeat: j.repeat, Start: time.Now(), ExitCode: -1,
		Status: analyze.StatusFailed, Reason: reason}
	res := analyze.Result{Client: rec.Client.String(), Arm: analyze.ArmFactsOf(j.arm), Row: j.row.Name, Label: j.row.Label, Repeat: j.repeat, Dir: j.dir,
		Status: rec.Status, Reason: rec.Reason, Instr: j.row.Instr, Eras: j.row.Eras, Requests: []analyze.RequestFacts{},
		Reader: fakeapi.Answer{Last: -1}}
	if err := os.MkdirAll(j.dir, 0o755); err == nil && writeJSON(evidence.RunDir(j.dir).Record(), rec) == nil {
		if r, err := analyze.Run(j.dir, j.clients); err == nil {
			return r
		}
		return res
	}
	// No record can say the run failed (a full disk): then none may say
	// it went well, as one written before the failure would.
	os.Remove(evidence.RunDir(j.dir).Record())
	return res
}

// errIdle is the cause of a run idleWatch ended.
var errIdle = errors.New("idle")

// idleWatch stops a run (stop, with errIdle) once it has started and
// activity, a count that grows with every model request and every line of
// the lab's log, has not grown for idle; it returns when ctx ends.
func idleWatch(ctx context.Context, idle time.Duration, activity func() (started bool, n int64), stop context.CancelCauseFunc) {
	t := time.NewTicker(max(idle/20, 10*time.Millisecond))
	defer t.Stop()
	last, since := int64(-1), time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			started, n := activity()
			switch {
			case !started:
			case n != last:
				last, since = n, now
			case now.Sub(since) >= idle:
				stop(errIdle)
				return
			}
		}
	}
}

// execute starts the client in its own process group, so a timeout or an
// interrupt stops it and everything it started (the lab server included).
// With idle set, idleWatch ends it early once activity stops growing.
func (r *Runner) execute(ctx context.Context, c client.Client, run *client.Run, idle time.Duration, activity func() (bool, int64)) (status, reason string, code int, dur time.Duration, cmd *exec.Cmd) {
	timeout := run.Timeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	cctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	rctx, cancel := context.WithTimeout(cctx, timeout)
	defer cancel()
	if idle > 0 {
		go idleWatch(rctx, idle, activity, stop)
	}
	cmd, err := c.Command(rctx, run)
	if err != nil {
		return analyze.StatusFailed, "preparing the client: " + err.Error(), -1, 0, nil
	}
	stdout, err1 := os.Create(run.Stdout())
	stderr, err2 := os.Create(run.Stderr())
	if err := errors.Join(err1, err2); err != nil {
		return analyze.StatusFailed, "creating output files: " + err.Error(), -1, 0, cmd
	}
	defer stdout.Close()
	defer stderr.Close()
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, stdout, stderr
	ownGroup(cmd)
	cmd.Cancel = func() error { return killGroup(cmd) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	if err = cmd.Start(); err == nil {
		r.reaper.add(cmd.Process.Pid)
		err = cmd.Wait()
	}
	dur = time.Since(start)
	if cmd.Process != nil {
		// Whatever the client left running in its group (a lab server it
		// did not stop) goes with it.
		_ = killGroup(cmd)
		r.reaper.done(cmd.Process.Pid)
	}
	code = -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	switch {
	case ctx.Err() != nil:
		return statusAbort, "interrupted", code, dur, cmd
	case errors.Is(context.Cause(cctx), errIdle):
		return analyze.StatusFailed, analyze.TimedOut + idle.String() + analyze.Idle, code, dur, cmd
	case errors.Is(rctx.Err(), context.DeadlineExceeded):
		return analyze.StatusFailed, analyze.TimedOut + timeout.String(), code, dur, cmd
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return analyze.StatusFailed, "killed by signal " + ws.Signal().String(), code, dur, cmd
			}
			return analyze.StatusFailed, fmt.Sprintf("exit status %d", code) + stderrQuote(run.Stderr()), code, dur, cmd
		}
		return analyze.StatusFailed, "running the client: " + err.Error(), code, dur, cmd
	}
	return analyze.StatusOK, "", 0, dur, cmd
}

// stderrQuote quotes what a client that failed wrote on stderr ("; its
// stderr: ..."), so that a version the adapter cannot drive says why (a
// flag it lacks, an output format it does not know): the lines that say
// why, by stderr.Lines. The jail's own line about the exit status is left
// out.
func stderrQuote(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(io.LimitReader(f, stderr.MaxRead))
	for sc.Scan() {
		if l := sc.Text(); !strings.HasPrefix(strings.TrimSpace(l), "instrlab: jail:") {
			b.WriteString(l + "\n")
		}
	}
	q := stderr.Quote(b.String())
	if q == "" {
		return ""
	}
	return "; its stderr: " + redact.String(q)
}
