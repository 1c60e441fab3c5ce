package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/netjail"
	"github.com/instrlab/instrlab/lab"
)

// TestMain lets this test binary act as the fake client and as the lab
// server it starts (see fakeclient), and as the jail around them.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "jail" {
		code, err := netjail.Main(os.Args[2:], os.Stderr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(code)
	}
	fakeclient.Main()
	os.Exit(m.Run())
}

func fakeClient(version string, env map[string]string) *fakeclient.Client {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	return &fakeclient.Client{Exe: exe, Version: version, Env: env}
}

// fakeClients finds the fake client a run's record names, as clients.New
// finds a real one.
func fakeClients(spec string) (client.Client, error) {
	s, err := client.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return fakeClient(s.Version, nil), nil
}

const testPrompt = "Reply with BEGIN=<codeword> END=<codeword> LAST=<N of [at N]>."

func testMatrix(rows ...matrix.Row) *matrix.Matrix {
	return &matrix.Matrix{Name: "test", Repeats: 2, Prompt: testPrompt, Baseline: rows[0].Name, Rows: rows}
}

func newRunner(t *testing.T, m *matrix.Matrix, c client.Client) *Runner {
	exe, _ := os.Executable()
	return &Runner{Clients: []client.Client{c}, Matrix: m, Out: t.TempDir(), Jobs: 2, Timeout: 30 * time.Second, Lab: exe, Progress: new(strings.Builder)}
}

func TestRunnerWithFakeClient(t *testing.T) {
	m := testMatrix(
		matrix.Row{Name: "none", Label: "none", Args: lab.Args{Instr: "none"}},
		matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}},
		matrix.Row{Name: "en-5000", Label: "5,000", Args: lab.Args{Instr: "ascii:5000"}},
	)
	r := newRunner(t, m, fakeClient("1", nil))
	results, st, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Runs != 6 || st.Failed != 0 || len(results) != 6 {
		t.Fatalf("stats %+v, %d results", st, len(results))
	}
	type row struct {
		Row, Status, Placement, Reader, Methods string
		Kept                                    int
	}
	var got []row
	keys := map[string]map[string]bool{}
	for _, res := range results {
		g := row{Row: res.Row, Status: res.Status, Reader: res.Reader.Line(), Methods: strings.Join(res.Handshake.Methods, " ")}
		if b := res.First.Best(); b != nil {
			g.Placement, g.Kept = string(b.Kind), b.Kept
		}
		got = append(got, g)
		if keys[res.Row] == nil {
			keys[res.Row] = map[string]bool{}
		}
		keys[res.Row][res.RequestKey] = true
		if res.Observation.ServerStatus != "connected" || res.ModelAnswer != res.Reader.Line() {
			t.Errorf("%s #%d: status %q, answer %q", res.Row, res.Repeat, res.Observation.ServerStatus, res.ModelAnswer)
		}
	}
	hs := "initialize notifications/initialized tools/list"
	want := []row{
		{"none", "ok", "", "BEGIN=NONE END=NONE LAST=NONE", hs, 0},
		{"none", "ok", "", "BEGIN=NONE END=NONE LAST=NONE", hs, 0},
		{"en-1000", "ok", "system-message", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", hs, 1000},
		{"en-1000", "ok", "system-message", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", hs, 1000},
		{"en-5000", "ok", "system-message", "BEGIN=WARBLER-6225 END=NONE LAST=1806", hs, 2048},
		{"en-5000", "ok", "system-message", "BEGIN=WARBLER-6225 END=NONE LAST=1806", hs, 2048},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("results mismatch (-want +got):\n%s", diff)
	}
	for name, k := range keys {
		if len(k) != 1 {
			t.Errorf("row %s: repeats differ after normalising: %v", name, k)
		}
	}
	// The evidence alone gives the same results.
	again, err := analyze.Run(results[4].Dir, fakeClients)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(results[4], again); diff != "" {
		t.Errorf("re-analysis mismatch (-want +got):\n%s", diff)
	}
	for _, f := range []string{evidence.RecordFile, evidence.ResultFile, evidence.LabLogFile, "api/requests.jsonl", "client/stdout.txt", "client/stderr.txt"} {
		if _, err := os.Stat(filepath.Join(results[4].Dir, f)); err != nil {
			t.Errorf("evidence: %v", err)
		}
	}
	if p := r.Progress.(*strings.Builder).String(); !strings.Contains(p, "[6/6] fake@1 ") || !strings.Contains(p, "ETA") {
		t.Errorf("progress:\n%s", p)
	}

	// -resume skips what finished.
	r.Progress = new(strings.Builder)
	r.Resume = true
	resumed, st, err := r.Run(context.Background())
	if err != nil || st.Skipped != 6 || st.Runs != 0 {
		t.Fatalf("resume: %v %+v", err, st)
	}
	if diff := cmp.Diff(results, resumed); diff != "" {
		t.Errorf("resumed results mismatch (-want +got):\n%s", diff)
	}
}

func TestRunnerRecordsFailures(t *testing.T) {
	for _, tt := range []struct {
		mode, reason, status string
	}{
		{"hang", "timed out after 2s", "connected"},
		{"hang-row", "timed out after 1.5s", "connected"}, // the row's own, shorter timeout
		// Idle after its first model request: ended by the row's idle,
		// long before its 30 s limit.
		{"stall", analyze.TimedOut + "500ms" + analyze.Idle, "connected"},
		// Idle before any model request: the idle limit has not started.
		{"hang-idle", "timed out after 2s", "connected"},
		{"crash", "exit status 3; its stderr: Unknown arguments: crash", "connected"},
		{"no-model", reasonNoModelRequest, "connected"},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			row := matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}, Repeats: 1}
			mode := tt.mode
			switch mode {
			case "hang-row":
				mode, row.Timeout = "hang", "1.5s"
			case "stall":
				row.Idle = "500ms"
			case "hang-idle":
				mode, row.Timeout, row.Idle = "hang", "2s", "500ms"
			}
			m := testMatrix(row)
			r := newRunner(t, m, fakeClient("1", map[string]string{"FAKE_MODE": mode}))
			// Only the hanging client is meant to meet the timeout; the
			// others get room to finish on a loaded machine under -race.
			r.Timeout = 30 * time.Second
			if tt.mode == "hang" {
				r.Timeout = 2 * time.Second
			}
			results, st, err := r.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if st.Failed != 1 || len(results) != 1 {
				t.Fatalf("stats %+v", st)
			}
			res := results[0]
			if res.Status != "failed" || res.Reason != tt.reason {
				t.Errorf("status %q reason %q, want failed %q", res.Status, res.Reason, tt.reason)
			}
			// Partial evidence is kept and read.
			if res.Observation.ServerStatus != tt.status || len(res.Handshake.Methods) == 0 {
				t.Errorf("partial evidence: status %q, methods %q", res.Observation.ServerStatus, res.Handshake.Methods)
			}
		})
	}
}

func TestRunnerInterruptKeepsFinishedRuns(t *testing.T) {
	m := testMatrix(matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}, Repeats: 1})
	r := newRunner(t, m, fakeClient("1", nil))
	if _, _, err := r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.Rows = append(m.Rows, matrix.Row{Name: "hang", Label: "hang", Args: lab.Args{Instr: "ascii:1000"}, Repeats: 1, Env: map[string]string{"FAKE_MODE": "hang"}})
	r.Resume = true
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	results, st, err := r.Run(ctx)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("Run = %v, want interrupted", err)
	}
	if st.Interrupted != 1 || st.Skipped != 1 || len(results) != 1 || results[0].Row != "en-1000" {
		t.Errorf("stats %+v, results %d", st, len(results))
	}
	if _, err := os.Stat(evidence.OutDir(r.Out).Run(client.Spec{Name: "fake", Version: "1"}.String(), "hang", 1).Record()); err == nil {
		t.Error("the interrupted run left a record, so -resume would skip it")
	}
}

func TestRunnerRecordsItsOwnFailures(t *testing.T) {
	m := testMatrix(matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}, Repeats: 1})
	r := newRunner(t, m, fakeClient("1", nil))
	// A file where the row's directory should be: the run cannot start.
	if err := os.MkdirAll(filepath.Join(r.Out, "fake@1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Out, "fake@1", "en-1000"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	results, st, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Failed != 1 || len(results) != 1 || results[0].Status != "failed" || !strings.HasPrefix(results[0].Reason, "runner: ") {
		t.Errorf("stats %+v, results %+v", st, results)
	}
}

// TestRunnerWriteFailureAgrees: when the evidence files of a run cannot be
// written (a full disk), the run is failed, and no run.json on disk says
// otherwise, even when run.json itself can no longer be written.
func TestRunnerWriteFailureAgrees(t *testing.T) {
	for _, alsoRecord := range []bool{false, true} {
		m := testMatrix(matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}, Repeats: 1})
		r := newRunner(t, m, fakeClient("1", nil))
		full := false // the disk fills when result.json is written
		failWrite = func(p string) error {
			if filepath.Base(p) == evidence.ResultFile {
				full = true
			}
			if full && (filepath.Base(p) == evidence.ResultFile || alsoRecord) {
				return syscall.ENOSPC
			}
			return nil
		}
		results, st, err := r.Run(context.Background())
		failWrite = nil
		if err != nil {
			t.Fatal(err)
		}
		if st.Failed != 1 || len(results) != 1 || results[0].Status != analyze.StatusFailed {
			t.Fatalf("alsoRecord %v: stats %+v, results %+v: want the run failed", alsoRecord, st, results)
		}
		rec, err := analyze.ReadRecord(string(evidence.OutDir(r.Out).Run(client.Spec{Name: "fake", Version: "1"}.String(), "en-1000", 1)))
		if err == nil && rec.Status != analyze.StatusFailed {
			t.Errorf("alsoRecord %v: run.json says %q while the run failed", alsoRecord, rec.Status)
		}
	}
}

func TestStderrQuotesTheComplaint(t *testing.T) {
	for _, tt := range []struct{ stderr, want string }{
		{"", ""},
		{"instrlab: jail: the client exited with status 1\n", ""},
		{"segfault at 0\n\nbye\n", "; its stderr: segfault at 0 ⏎ bye"},
		// qwen 0.1.3: the complaint first, then the usage.
		{"Invalid values:\n  Argument: output-format, Given: \"stream-json\", Choices: \"text\", \"json\"\nUsage: qwen [options]\n  -p\n",
			"; its stderr: Invalid values: ⏎ Argument: output-format, Given: \"stream-json\", Choices: \"text\", \"json\" ⏎ Usage: qwen [options] ⏎ -p"},
		// gemini 0.1.1: the usage first, the complaint last, then the jail's line.
		{"Options:\n  -m, --model  Model\n\nUnknown arguments: output-format, outputFormat\ninstrlab: jail: the client exited with status 1\n",
			"; its stderr: Unknown arguments: output-format, outputFormat"},
	} {
		path := filepath.Join(t.TempDir(), "stderr.txt")
		if err := os.WriteFile(path, []byte(tt.stderr), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := stderrQuote(path); got != tt.want {
			t.Errorf("stderr %q:\n got %q\nwant %q", tt.stderr, got, tt.want)
		}
	}
}

// uninstallable is a client whose version does not install.
type uninstallable struct{ *fakeclient.Client }

func (uninstallable) Provision(ctx context.Context, progress io.Writer) error {
	return errors.New("npm serves no version 9.9.9")
}

// TestRunnerClientThatDoesNotInstall: a client that cannot be provisioned
// does not stop the others: its runs are recorded as failed with the
// reason (in its evidence too, so report and -resume read them), the
// others run, and progress says so. When no client installs, the run
// fails before any run, naming each.
func TestRunnerClientThatDoesNotInstall(t *testing.T) {
	m := testMatrix(matrix.Row{Name: "en-1000", Label: "1,000", Args: lab.Args{Instr: "ascii:1000"}})
	bad := uninstallable{fakeClient("9.9.9", nil)}
	r := newRunner(t, m, fakeClient("1", nil))
	r.Clients = append(r.Clients, bad)
	results, st, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Runs != 4 || st.Failed != 2 || len(results) != 4 {
		t.Fatalf("stats %+v, %d results; want 4 runs, 2 failed", st, len(results))
	}
	for _, res := range results {
		switch res.Client {
		case "fake@1":
			if res.Status != analyze.StatusOK {
				t.Errorf("fake@1 #%d: %s (%s), want ok", res.Repeat, res.Status, res.Reason)
			}
		case "fake@9.9.9":
			if res.Status != analyze.StatusFailed || res.Reason != "provisioning fake@9.9.9: npm serves no version 9.9.9" {
				t.Errorf("fake@9.9.9 #%d: %s (%s), want failed with the provisioning error", res.Repeat, res.Status, res.Reason)
			}
			rec, err := analyze.ReadRecord(res.Dir)
			if err != nil || rec.Status != analyze.StatusFailed || rec.Reason != res.Reason {
				t.Errorf("fake@9.9.9 #%d: record %+v, %v", res.Repeat, rec, err)
			}
		default:
			t.Errorf("a result of %s", res.Client)
		}
	}
	if p := r.Progress.(*strings.Builder).String(); !strings.Contains(p, "provisioning fake@9.9.9: npm serves no version 9.9.9\n(its runs are recorded as failed; the other clients run)") {
		t.Errorf("progress does not say which client did not install:\n%s", p)
	}

	r = newRunner(t, m, bad)
	r.Clients = append(r.Clients, uninstallable{fakeClient("9.9.8", nil)})
	if _, _, err := r.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "fake@9.9.9") || !strings.Contains(err.Error(), "fake@9.9.8") {
		t.Errorf("no client installs: %v, want an error naming both", err)
	}
	if entries, _ := os.ReadDir(r.Out); len(entries) != 0 {
		t.Errorf("no client installs, yet the run wrote %d entries", len(entries))
	}
}

// TestIdleWatch: a run whose activity keeps growing, or that has not
// started (no model request yet), is never stopped for idling; one whose
// activity stops growing after it started is, with errIdle.
func TestIdleWatch(t *testing.T) {
	for _, tt := range []struct {
		name     string
		activity func(tick int64) (bool, int64)
		stopped  bool
	}{
		{"growing", func(tick int64) (bool, int64) { return true, tick }, false},
		{"not started", func(int64) (bool, int64) { return false, 0 }, false},
		{"quiet after a start", func(tick int64) (bool, int64) { return true, min(tick, 3) }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			var tick atomic.Int64
			var cause error
			stop := func(err error) { cause = err }
			idleWatch(ctx, 50*time.Millisecond, func() (bool, int64) { return tt.activity(tick.Add(1)) }, stop)
			if got := errors.Is(cause, errIdle); got != tt.stopped {
				t.Errorf("stopped %v (%v), want %v", got, cause, tt.stopped)
			}
		})
	}
}
