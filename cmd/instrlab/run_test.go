package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
)

// init lets this test binary act as the fake client when a run starts it
// (before TestMain builds anything), and registers that client.
func init() {
	fakeclient.Main()
	clients.Register(fakeclient.Name, func(v string) client.Client {
		exe, err := os.Executable()
		if err != nil {
			panic(err)
		}
		return &fakeclient.Client{Exe: exe, Version: v}
	})
}

// seedFile writes the built-in seed matrix to a file, so the tests name
// their matrix whatever the default for the fake client is.
func seedFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "seed.json")
	if err := os.WriteFile(p, matrix.SeedJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader in other
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestRunUsageErrors(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-j", "0"}, "-j must be at least 1"},
		{[]string{"-resume"}, "-resume needs -out"},
		{[]string{"-timeout", "0s"}, "-timeout must be positive"},
		{[]string{"-repeat-sensitive", "-1"}, "-repeat-sensitive must not be negative"},
		{[]string{"-format", "pdf"}, `-format "pdf"`},
		{[]string{"-client", "nope@1"}, `-client: client "nope": unknown`},
		{[]string{"-client", "claude code"}, "-client: client"},
		{[]string{"-row", "no-such-row"}, `-row "no-such-row"`},
		{[]string{"-matrix", "/no/such/file.json"}, "-matrix: reading matrix"},
		{[]string{"-live-price", "cheap"}, "-live-price"},
		{[]string{"-live", "-client", "fake@1"}, "-live needs ANTHROPIC_API_KEY"},
		{[]string{"-netns", "sometimes"}, `-netns "sometimes": want auto, on or off`},
		{[]string{"-netns", "on", "-live"}, "-netns on conflicts with -live"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"-call", "echo"}, "-call needs -server or -config"},
		{[]string{"-call", `echo={"a":`, "-server", "--", "cat"}, `-call "echo={\"a\":": the input of echo is not a JSON object`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), append([]string{"run"}, tt.args...), &stdout, &stderr)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &ue) {
			t.Errorf("run %q = %v, want a usage error containing %q", tt.args, err, tt.want)
		}
	}
}

// TestRunAndReport runs two rows on the fake client offline, then checks
// that report rebuilds the same table from the evidence alone.
func TestRunAndReport(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-client", "fake@1", "-matrix", seedFile(t), "-lab", binary, "-out", out, "-row", "none", "-row", "en-5000", "-repeats", "2", "-j", "2", "-format", "md"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	table := stdout.String()
	for _, want := range []string{"Client: fake@1", "| 5,000 characters, English | 2 ok | connected |", "2,048 of 5,000 + \"… \\[truncated]\"", "BEGIN=WARBLER-6225 END=NONE LAST=1806", "o200k_base"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	for _, f := range []string{"table.md", "table.html", "results.json", "results.csv", "matrix.json", "stats.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(stderr.String(), "[4/4] fake@1 ") {
		t.Errorf("progress:\n%s", stderr.String())
	}
	var again, stderr2 bytes.Buffer
	if err := run(context.Background(), []string{"report", out}, &again, &stderr2); err != nil {
		t.Fatalf("report: %v\n%s", err, stderr2.String())
	}
	if again.String() != table {
		t.Errorf("report differs from run:\n--- run\n%s\n--- report\n%s", table, again.String())
	}
	saved, _ := os.ReadFile(filepath.Join(out, "table.md"))
	if string(saved) != table {
		t.Error("table.md differs from the printed table")
	}
	err := run(context.Background(), args, new(bytes.Buffer), new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), "holds an earlier run") {
		t.Errorf("a second run into the same -out = %v, want a usage error", err)
	}
	var summary bytes.Buffer
	if err := run(context.Background(), []string{"report", "-format", "text", out}, &summary, new(bytes.Buffer)); err != nil {
		t.Fatalf("report -format text: %v", err)
	}
	if want := "Client: fake@1\n\nrow      arrived       where           kept            cap\n"; !strings.HasPrefix(summary.String(), want) {
		t.Errorf("summary does not begin with %q:\n%s", want, summary.String())
	}
	if want := "en-5000  cut           system-message  2,048 of 5,000  2,048 chars\n"; !strings.Contains(summary.String(), want) {
		t.Errorf("summary lacks %q:\n%s", want, summary.String())
	}
	// The same matrix again, compared with the first run: nothing changed.
	var again2 bytes.Buffer
	baseArgs := []string{"run", "-client", "fake@1", "-matrix", seedFile(t), "-lab", binary, "-out", t.TempDir(), "-row", "none", "-row", "en-5000", "-repeats", "2", "-baseline", out}
	if err := run(context.Background(), baseArgs, &again2, new(bytes.Buffer)); err != nil || !strings.Contains(again2.String(), "0 changes in 2 rows on fake@1") {
		t.Errorf("run -baseline: %v\n%s", err, again2.String())
	}
	var resumed, stderr3 bytes.Buffer
	if err := run(context.Background(), append(args, "-resume"), &resumed, &stderr3); err != nil {
		t.Fatalf("resume: %v", err)
	}
	if resumed.String() != table || !strings.Contains(stderr3.String(), "0 runs (4 skipped") {
		t.Errorf("resume printed:\n%s\n%s", resumed.String(), stderr3.String())
	}
}

// TestRunLive points -live at a second local fake: the same evidence is
// recorded, the user's key reaches the upstream and nothing else, and the
// cost bound is printed before the first request.
func TestRunLive(t *testing.T) {
	const key = "sk-ant-user-key-for-test"
	t.Setenv("ANTHROPIC_API_KEY", key)
	stderr := &lockedBuffer{}
	upstreamFake, err := fakeapi.Start(fakeapi.Options{Prompt: "unused"})
	if err != nil {
		t.Fatal(err)
	}
	defer upstreamFake.Close()
	var mu sync.Mutex
	var keys []string
	var printedFirst []bool
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("X-Api-Key"))
		printedFirst = append(printedFirst, strings.Contains(stderr.String(), "live: up to 2 requests"))
		mu.Unlock()
		upstreamFake.ServeHTTP(w, r)
	}))
	defer upstream.Close()
	out := t.TempDir()
	var stdout bytes.Buffer
	args := []string{"run", "-client", "fake@1", "-matrix", seedFile(t), "-lab", binary, "-out", out, "-row", "en-1000", "-repeats", "2", "-j", "1",
		"-live", "-live-upstream", upstream.URL, "-format", "md"}
	if err := run(context.Background(), args, &stdout, stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if len(keys) != 2 || keys[0] != key || keys[1] != key {
		t.Errorf("upstream saw keys %q, want the user's key twice", keys)
	}
	for i, ok := range printedFirst {
		if !ok {
			t.Errorf("request %d reached the upstream before the cost bound was printed", i+1)
		}
	}
	if !strings.Contains(stderr.String(), "at most $") {
		t.Errorf("no cost bound in:\n%s", stderr.String())
	}
	if !strings.Contains(stdout.String(), "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798") || !strings.Contains(stdout.String(), "Live runs") {
		t.Errorf("table:\n%s", stdout.String())
	}
	// The key is nowhere in the evidence; the client only had the dummy.
	err = filepath.Walk(out, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(key)) {
			t.Errorf("%s holds the user's key", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reqs, _, err := fakeapi.ReadRequests(filepath.Join(out, "fake@1", "en-1000", "1", "api", fakeapi.RequestsFile))
	if err != nil || len(reqs) != 1 || reqs[0].Upstream != upstream.URL || reqs[0].Header.Get("X-Api-Key") != "[redacted]" {
		t.Errorf("recorded %+v, %v", reqs, err)
	}
}

// TestRunResumeNarrower resumes a two-row run with one of its rows: that
// row runs again, while matrix.json and the tables keep the other row.
// A resume with a row the earlier run did not have is refused.
func TestRunResumeNarrower(t *testing.T) {
	out := t.TempDir()
	common := []string{"run", "-client", "fake@1", "-matrix", seedFile(t), "-lab", binary, "-out", out, "-repeats", "1", "-format", "md"}
	if err := run(context.Background(), append(common, "-row", "none", "-row", "en-1000"), new(bytes.Buffer), new(bytes.Buffer)); err != nil {
		t.Fatalf("run: %v", err)
	}
	matrixBefore, err := os.ReadFile(filepath.Join(out, "matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The en-1000 run was interrupted: the resume redoes it alone.
	if err := os.Remove(filepath.Join(out, "fake@1", "en-1000", "1", "run.json")); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), append(common, "-resume", "-row", "en-1000"), &stdout, &stderr); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "1 runs (0 skipped, 0 failed") {
		t.Errorf("resume did not run en-1000 alone:\n%s", stderr.String())
	}
	matrixAfter, _ := os.ReadFile(filepath.Join(out, "matrix.json"))
	if !bytes.Equal(matrixBefore, matrixAfter) {
		t.Errorf("resume rewrote matrix.json:\n%s", matrixAfter)
	}
	saved, _ := os.ReadFile(filepath.Join(out, "table.md"))
	for name, table := range map[string]string{"printed": stdout.String(), "table.md": string(saved)} {
		for _, want := range []string{"| No instructions field |", "| 1,000 characters, English |"} {
			if !strings.Contains(table, want) {
				t.Errorf("%s table lacks %q:\n%s", name, want, table)
			}
		}
	}
	var again bytes.Buffer
	if err := run(context.Background(), []string{"report", "-format", "md", out}, &again, new(bytes.Buffer)); err != nil || again.String() != stdout.String() {
		t.Errorf("report = %v, differs from the resume's table:\n--- resume\n%s\n--- report\n%s", err, stdout.String(), again.String())
	}
	err = run(context.Background(), append(common, "-resume", "-row", "en-1000", "-row", "en-5000"), new(bytes.Buffer), new(bytes.Buffer))
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), `"en-5000"`) || strings.Contains(err.Error(), `"en-1000"`) {
		t.Errorf("resume with a row the earlier run lacks = %v, want a usage error naming en-5000", err)
	}
	after, _ := os.ReadFile(filepath.Join(out, "matrix.json"))
	if !bytes.Equal(matrixBefore, after) {
		t.Error("a refused resume changed matrix.json")
	}
}

// TestRunLeftoverRunDirs: a resume removes the run dirs a killed run left
// without a record before it runs them again, keeping nothing of them.
func TestRunLeftoverRunDirs(t *testing.T) {
	out := t.TempDir()
	args := []string{"run", "-client", "fake@1", "-matrix", seedFile(t), "-lab", binary, "-out", out, "-repeats", "1", "-row", "none", "-row", "en-1000"}
	if err := run(context.Background(), args, new(bytes.Buffer), new(bytes.Buffer)); err != nil {
		t.Fatalf("run: %v", err)
	}
	dir := filepath.Join(out, "fake@1", "en-1000", "1")
	if err := os.Remove(filepath.Join(dir, "run.json")); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "home", "stale-from-killed-run")
	if err := os.WriteFile(stale, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if err := run(context.Background(), append(args, "-resume"), new(bytes.Buffer), &stderr); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr.String())
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the killed run's file stays: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "run.json")); err != nil {
		t.Errorf("the run was not redone: %v", err)
	}
}
