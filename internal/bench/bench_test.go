package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestMain lets the test binary play an MCP server (the fork-exec trick):
// with BENCH_FAKE_SERVER set, it answers initialize and tools/list on stdio,
// and with a log path as its argument writes a lab-style message log,
// leaving out every BENCH_FAKE_SKIP-th tools/list reply.
func TestMain(m *testing.M) {
	if os.Getenv("BENCH_FAKE_SERVER") != "" {
		fakeServer()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func fakeServer() {
	var log *os.File
	if len(os.Args) > 1 {
		var err error
		if log, err = os.Create(os.Args[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer log.Close()
	}
	skip := 0
	fmt.Sscan(os.Getenv("BENCH_FAKE_SKIP"), &skip)
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	lists := 0
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(in.Bytes(), &req)
		if req.ID == nil {
			continue
		}
		switch req.Method {
		case "initialize":
			fmt.Fprintf(out, `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`+"\n")
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25"}}`+"\n", req.ID)
		case "tools/list":
			lists++
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}`+"\n", req.ID)
			if log != nil {
				fmt.Fprintf(log, `{"dir":"recv","kind":"request","method":"tools/list","id":%s}`+"\n", req.ID)
				if skip == 0 || lists%skip != 0 {
					fmt.Fprintf(log, `{"dir":"send","kind":"response","method":"tools/list","id":%s}`+"\n", req.ID)
				}
			}
		default:
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no"}}`+"\n", req.ID)
		}
		out.Flush()
	}
}

func fake(t *testing.T, name string, logs bool, env ...string) Contender {
	t.Helper()
	for _, e := range append([]string{"BENCH_FAKE_SERVER=1"}, env...) {
		k, v, _ := strings.Cut(e, "=")
		t.Setenv(k, v)
	}
	argv := []string{os.Args[0]}
	if logs {
		argv = append(argv, LogPlaceholder)
	}
	return Contender{Name: name, Argv: argv}
}

func TestMeasureStartup(t *testing.T) {
	s, err := MeasureStartup(fake(t, "fake", false), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if s.Elapsed <= 0 || s.Elapsed > 10*time.Second {
		t.Errorf("Elapsed = %v, want a positive time", s.Elapsed)
	}
	if s.MaxRSS <= 0 {
		t.Errorf("MaxRSS = %d, want the process's peak memory", s.MaxRSS)
	}
}

func TestMeasureThroughputChecksLog(t *testing.T) {
	for _, each := range []bool{false, true} {
		tp, err := MeasureThroughput(fake(t, "fake", true), 500, each, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		want := LogCounts{Lines: 1000, Recv: 500, Sent: 500}
		if diff := cmp.Diff(&want, tp.Log); diff != "" {
			t.Errorf("each write %v: log counts mismatch (-want +got):\n%s", each, diff)
		}
		if tp.Requests != 500 || tp.Rate() <= 0 || tp.ReplyBytes == 0 {
			t.Errorf("each write %v: got %+v, want 500 requests at a positive rate", each, tp)
		}
	}
}

func TestMeasureThroughputMissingLogLines(t *testing.T) {
	_, err := MeasureThroughput(fake(t, "fake", true, "BENCH_FAKE_SKIP=100"), 500, true, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "495 of 500 replies") {
		t.Errorf("err = %v, want the count of replies missing from the log", err)
	}
}

func TestMeasureStartupFailingServer(t *testing.T) {
	c := Contender{Name: "false", Argv: []string{"false"}}
	if _, err := MeasureStartup(c, t.TempDir()); err == nil {
		t.Error("MeasureStartup of a server that exits at once succeeded")
	}
}

func TestRunInterleaves(t *testing.T) {
	a, b := fake(t, "a", false), fake(t, "b", true)
	results, err := Run(Config{Contenders: []Contender{a, b}, Spawns: 2, Rounds: 1, Requests: 10, Throughput: []string{"b"}, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int{}
	for _, r := range results {
		got[r.Name] = [2]int{len(r.Startups), len(r.Throughput)}
	}
	want := map[string][2]int{"a": {2, 0}, "b": {2, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("measurements per contender mismatch (-want +got):\n%s", diff)
	}
}

func TestParseContender(t *testing.T) {
	tests := []struct {
		in      string
		want    Contender
		wantErr bool
	}{
		{in: "lab=instrlab serve lab -log {log}", want: Contender{"lab", []string{"instrlab", "serve", "lab", "-log", "{log}"}}},
		{in: "bare=./bare", want: Contender{"bare", []string{"./bare"}}},
		{in: "bare", wantErr: true},
		{in: "=./bare", wantErr: true},
		{in: "bare=  ", wantErr: true},
	}
	for _, tt := range tests {
		got, err := ParseContender(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseContender(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseContender(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}

func startups(ms ...float64) []Startup {
	var s []Startup
	for _, m := range ms {
		s = append(s, Startup{Elapsed: time.Duration(m * float64(time.Millisecond)), MaxRSS: 10 << 20})
	}
	return s
}

func TestMedian(t *testing.T) {
	r := &Result{Startups: startups(9, 1, 5, 7)}
	if got, want := r.StartupMedian(), 6*time.Millisecond; got != want {
		t.Errorf("median of 9, 1, 5, 7 = %v, want %v", got, want)
	}
	r.Startups = startups(3, 1, 2)
	if got, want := r.StartupMedian(), 2*time.Millisecond; got != want {
		t.Errorf("median of 3, 1, 2 = %v, want %v", got, want)
	}
}

func TestTargets(t *testing.T) {
	tp := func(rate float64, rss int64, logged int) Throughput {
		return Throughput{Requests: 1000, Elapsed: time.Duration(1000 / rate * float64(time.Second)), MaxRSS: rss, Log: &LogCounts{Recv: logged, Sent: logged}}
	}
	lab := &Result{Name: NameLab, Startups: startups(7, 7, 7), Throughput: []Throughput{tp(22000, 30<<20, 1000)}}
	bare := &Result{Name: NameBare, Startups: startups(6, 6, 6), Throughput: []Throughput{tp(20000, 20<<20, 0)}}
	bare1 := &Result{Name: NameBare1, Startups: startups(6.5, 6.5, 6.5)}
	every := &Result{Name: NameEverything, Startups: startups(200, 200, 200)}
	want := []Target{
		{"lab's startup within 1 ms of bare's", "+1.00 ms", true},
		{"lab's startup within 1 ms of bare1's", "+0.50 ms", true},
		{"lab starts at least 20× faster than everything", "29×", true},
		{"lab's tools/list rate, log on, at least bare's", "1.10× (22000 vs 20000 /s)", true},
		{"lab answers at least 20,000 tools/list per second, log on", "22000 /s", true},
		{"lab's peak memory under 40 MiB", "30.0 MiB", true},
		{"lab logs every request and reply", "1000 of 1000 requests", true},
	}
	if diff := cmp.Diff(want, Targets([]*Result{lab, bare, bare1, every})); diff != "" {
		t.Errorf("targets met mismatch (-want +got):\n%s", diff)
	}

	// The small binary is held to the same goals, in rows of its own after
	// lab's, which it leaves as they were.
	lite := &Result{Name: NameLabLite, Startups: startups(6.2, 6.2, 6.2), Throughput: []Throughput{tp(21000, 25<<20, 1000)}}
	wantLite := append(want[:len(want):len(want)],
		Target{"lablite's startup within 1 ms of bare's", "+0.20 ms", true},
		Target{"lablite's startup within 1 ms of bare1's", "-0.30 ms", true},
		Target{"lablite starts at least 20× faster than everything", "32×", true},
		Target{"lablite's tools/list rate, log on, at least bare's", "1.05× (21000 vs 20000 /s)", true},
		Target{"lablite answers at least 20,000 tools/list per second, log on", "21000 /s", true},
		Target{"lablite's peak memory under 40 MiB", "25.0 MiB", true},
		Target{"lablite logs every request and reply", "1000 of 1000 requests", true},
	)
	if diff := cmp.Diff(wantLite, Targets([]*Result{lab, bare, bare1, every, lite})); diff != "" {
		t.Errorf("targets with lablite mismatch (-want +got):\n%s", diff)
	}

	lab.Startups = startups(8, 8, 8)
	lab.Throughput = []Throughput{tp(7000, 41<<20, 999)}
	every.Startups = startups(100, 100, 100)
	var missed []string
	for _, tg := range Targets([]*Result{lab, bare, bare1, every}) {
		if !tg.Met {
			missed = append(missed, tg.Goal)
		}
	}
	if len(missed) != 7 {
		t.Errorf("missed %q, want all seven targets missed", missed)
	}
}

// TestWriteFormats checks that every one of Formats is printed, and that
// the note heads the Markdown only.
func TestWriteFormats(t *testing.T) {
	results := []*Result{{Name: NameLab, Startups: startups(7, 7, 7)}, {Name: NameBare1, Startups: startups(6, 6, 6)}}
	for _, format := range Formats {
		var b strings.Builder
		if err := Write(&b, format, "NOTE", results); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if !strings.Contains(b.String(), "bare1") {
			t.Errorf("%s output names no contender:\n%s", format, b.String())
		}
		if got, want := strings.HasPrefix(b.String(), "NOTE\n\n"), format == "md"; got != want {
			t.Errorf("%s output starts with the note: %v, want %v", format, got, want)
		}
	}
	if err := Write(io.Discard, "xml", "", results); err == nil || !strings.Contains(err.Error(), `-format "xml": want md, csv or json`) {
		t.Errorf("Write xml = %v, want the -format error", err)
	}
}
