package probe

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/lab"
)

// shape is what the tests compare of a Result: no timings.
type shape struct {
	Legacy, Modern           Outcome
	LegacyCode, ModernCode   int
	Survival                 string
	Fallback                 Outcome
	LegacyText, ModernText   string // the codewords, or "none"
	LegacyTools, ModernTools int
}

func shapeOf(r Result) shape {
	s := shape{Legacy: r.Legacy.Outcome, Modern: r.Modern.Outcome, Survival: r.Survival.Verdict,
		LegacyTools: len(r.Legacy.Tools), ModernTools: len(r.Modern.Tools)}
	if r.Legacy.Error != nil {
		s.LegacyCode = r.Legacy.Error.Code
	}
	if r.Modern.Error != nil {
		s.ModernCode = r.Modern.Error.Code
	}
	if r.Survival.Fallback != nil {
		s.Fallback = r.Survival.Fallback.Outcome
	}
	s.LegacyText, s.ModernText = codewords(r.Legacy), codewords(r.Modern)
	return s
}

// codewords names a text by its BEGIN codeword and length.
func codewords(e EraResult) string {
	if e.Instructions == nil {
		return "none"
	}
	t := *e.Instructions
	begin, _, _ := strings.Cut(strings.TrimPrefix(t, "BEGIN codeword: "), ".")
	return begin + "/" + strconv.Itoa(utf8.RuneCountInString(t))
}

func labCodeword(lang lab.Language, n int, reply lab.Reply) string {
	return lab.Codeword(lang, n, reply, "begin") + "/" + strconv.Itoa(n)
}

func TestProbeStdioLab(t *testing.T) {
	initText := labCodeword(lab.English, 1000, lab.ReplyInitialize)
	discText := labCodeword(lab.English, 1000, lab.ReplyDiscover)
	tests := []struct {
		name, args string
		want       shape
	}{
		{"legacy", "-eras legacy",
			shape{Legacy: OutcomeOK, Modern: OutcomeError, ModernCode: -32601, Survival: SurvivalMethodNotFound, Fallback: OutcomeOK,
				LegacyText: initText, ModernText: "none", LegacyTools: 3}},
		{"dual", "-eras legacy,modern",
			shape{Legacy: OutcomeOK, Modern: OutcomeOK, Survival: SurvivalModern,
				LegacyText: initText, ModernText: discText, LegacyTools: 3, ModernTools: 3}},
		{"modern", "-eras modern",
			shape{Legacy: OutcomeError, LegacyCode: -32022, Modern: OutcomeOK, Survival: SurvivalModern,
				LegacyText: "none", ModernText: discText, ModernTools: 3}},
		{"crash", "-eras legacy -on-unknown crash",
			shape{Legacy: OutcomeOK, Modern: OutcomeExit, Survival: SurvivalExit,
				LegacyText: initText, ModernText: "none", LegacyTools: 3}},
		{"none", "-eras legacy,modern -instr none",
			shape{Legacy: OutcomeOK, Modern: OutcomeOK, Survival: SurvivalModern,
				LegacyText: "none", ModernText: "none", LegacyTools: 3, ModernTools: 3}},
		{"japanese", "-eras legacy -instr japanese:3000",
			shape{Legacy: OutcomeOK, Modern: OutcomeError, ModernCode: -32601, Survival: SurvivalMethodNotFound, Fallback: OutcomeOK,
				LegacyText: labCodeword(lab.Japanese, 3000, lab.ReplyInitialize), ModernText: "none", LegacyTools: 3}},
		{"short delays", "-eras legacy,modern -init-delay 100ms -discover-delay 100ms",
			shape{Legacy: OutcomeOK, Modern: OutcomeOK, Survival: SurvivalModern,
				LegacyText: initText, ModernText: discText, LegacyTools: 3, ModernTools: 3}},
		{"exits at once", "exit",
			shape{Legacy: OutcomeExit, Modern: OutcomeExit, Survival: SurvivalExitAtStart, LegacyText: "none", ModernText: "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := testServer(t, tt.args)
			r := Probe(context.Background(), srv, quick)
			if diff := cmp.Diff(tt.want, shapeOf(r)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s\nlegacy: %s\nmodern: %s", diff, r.Legacy.Detail, r.Modern.Detail)
			}
			// What it examined is named as run names its own: the
			// variables it started the server with, names only.
			if want := fingerprint.EnvNames(os.Environ(), srv.Env); !slices.Equal(r.Target.EnvNames, want) || !slices.Contains(want, "PATH") {
				t.Errorf("env names %v, want %v", r.Target.EnvNames, want)
			}
		})
	}
}

func TestProbeExitDetail(t *testing.T) {
	r := Probe(context.Background(), testServer(t, "exit"), quick)
	if r.Legacy.ExitCode == nil || *r.Legacy.ExitCode != 3 {
		t.Errorf("exit code = %v, want 3", r.Legacy.ExitCode)
	}
	if !strings.Contains(r.Legacy.Detail, "fatal: no config file") {
		t.Errorf("detail %q does not quote stderr", r.Legacy.Detail)
	}
}

// TestProbeExitLines: the error line, where the cause is, is shown with
// the last line, and the stack frames between them are not
// (stderr.Lines).
func TestProbeExitLines(t *testing.T) {
	r := Probe(context.Background(), testServer(t, "exit-verbose"), quick)
	for _, want := range []string{"cannot open database: permission denied ⏎ usage: server [--db PATH]"} {
		if !strings.Contains(r.Legacy.Detail, want) {
			t.Errorf("detail %q lacks %q", r.Legacy.Detail, want)
		}
	}
	if strings.Contains(r.Legacy.Detail, "at frame") {
		t.Errorf("detail %q has the stack frames", r.Legacy.Detail)
	}
	if r.Survival.Verdict != SurvivalExitAtStart || !strings.Contains(r.Survival.Detail, "initialize on a fresh process too") {
		t.Errorf("survival %+v: want exit-at-start, since initialize gets no reply either", r.Survival)
	}
}

// TestProbeSilentOnce: a server silent to everything is not sent the
// fallback initialize after the probe, since the legacy era, run at the
// same time, already found initialize unanswered: one timeout, not two.
func TestProbeSilentOnce(t *testing.T) {
	o := Options{Timeout: 300 * time.Millisecond}
	r := Probe(context.Background(), testServer(t, "silent"), o)
	if r.Legacy.Outcome != OutcomeSilent || r.Modern.Outcome != OutcomeSilent {
		t.Fatalf("outcomes %s, %s; want silent twice", r.Legacy.Outcome, r.Modern.Outcome)
	}
	if r.Survival.Fallback != nil || !strings.Contains(r.Survival.Detail, "initialize was not sent after it") {
		t.Errorf("survival %+v: want no fallback, and why", r.Survival)
	}
}

// TestProbeToolsError: a failed tools/list is recorded as an error, with
// no tools, not as an empty list.
func TestProbeToolsError(t *testing.T) {
	r := Probe(context.Background(), testServer(t, "tools-error"), quick)
	if r.Legacy.Outcome != OutcomeOK || !strings.Contains(r.Legacy.ToolsError, "error -32603: database is locked") {
		t.Errorf("legacy %s, tools error %q; want ok and the tools/list error", r.Legacy.Outcome, r.Legacy.ToolsError)
	}
}

// TestProbeSilence covers the waits: a probe the server never answers, and
// a handshake slower than the timeout. Each waits out its timeout, long
// enough that the era answered in time does not run out of it when both
// eras start at once on a loaded machine (go test -race in CI).
func TestProbeSilence(t *testing.T) {
	o := Options{Timeout: 2 * time.Second}
	r := Probe(context.Background(), testServer(t, "-eras legacy -on-unknown hang"), o)
	want := shape{Legacy: OutcomeOK, Modern: OutcomeSilent, Survival: SurvivalSilent, Fallback: OutcomeOK,
		LegacyText: labCodeword(lab.English, 1000, lab.ReplyInitialize), ModernText: "none", LegacyTools: 3}
	if diff := cmp.Diff(want, shapeOf(r)); diff != "" {
		t.Errorf("hang: mismatch (-want +got):\n%s", diff)
	}
	if w := r.Survival.Wait.D(); w < o.Timeout {
		t.Errorf("hang: wait %v, want at least the timeout %v", w, o.Timeout)
	}

	r = Probe(context.Background(), testServer(t, "-eras legacy,modern -discover-delay 5s"), o)
	if r.Modern.Outcome != OutcomeSilent || r.Survival.Fallback == nil || r.Survival.Fallback.Outcome != OutcomeOK {
		t.Errorf("slow discover: modern %s, survival %+v: want silent, then initialize answered on the same process", r.Modern.Outcome, r.Survival)
	}

	r = Probe(context.Background(), testServer(t, "-eras legacy -init-delay 5s"), o)
	if r.Legacy.Outcome != OutcomeSilent {
		t.Errorf("slow initialize: legacy outcome %s, want silent (%s)", r.Legacy.Outcome, r.Legacy.Detail)
	}
	if r.Survival.Verdict != SurvivalMethodNotFound || r.Survival.Fallback == nil || r.Survival.Fallback.Outcome != OutcomeSilent {
		t.Errorf("slow initialize: survival %+v, want -32601 then a silent fallback", r.Survival)
	}
}

func TestProbeGarbage(t *testing.T) {
	r := Probe(context.Background(), testServer(t, "garbage -eras legacy"), quick)
	if r.Legacy.Outcome != OutcomeOK {
		t.Errorf("legacy outcome %s (%s), want ok after the stray line", r.Legacy.Outcome, r.Legacy.Detail)
	}
	want := []string{"Server listening on stdio, version 1.2.3"}
	if diff := cmp.Diff(want, r.Legacy.Stray); diff != "" {
		t.Errorf("stray mismatch (-want +got):\n%s", diff)
	}
}

// TestProbeTooLongOrDeep: a valid reply check cannot read, a line over
// 16 MiB or JSON nested past encoding/json's 10,000 levels, fails its
// request at once, saying so, never read as stray output followed by
// silence until the timeout (as on main).
func TestProbeTooLongOrDeep(t *testing.T) {
	for _, tt := range []struct{ mode, want string }{
		{"huge", "the server's reply is a line of 17825834 bytes, longer than 16777216 bytes (16 MiB)"},
		{"deep", "nested deeper than 10000 levels"},
	} {
		o := quick
		o.Timeout = 30 * time.Second
		start := time.Now()
		r := Probe(context.Background(), testServer(t, tt.mode), o)
		if r.Legacy.Outcome != OutcomeInvalid || !strings.Contains(r.Legacy.Detail, tt.want) {
			t.Errorf("%s: legacy %s (%s), want invalid saying %q", tt.mode, r.Legacy.Outcome, r.Legacy.Detail, tt.want)
		}
		if len(r.Legacy.Stray) > 0 || r.Legacy.FirstReply == 0 {
			t.Errorf("%s: stray %d lines, first reply %v; want none, and the reply timed", tt.mode, len(r.Legacy.Stray), r.Legacy.FirstReply)
		}
		if d := time.Since(start); d > o.Timeout/2 {
			t.Errorf("%s: took %v, as if waiting out the timeout", tt.mode, d)
		}
	}
}

func TestProbeNotFound(t *testing.T) {
	r := Probe(context.Background(), Target{Name: "x", Transport: TransportStdio, Command: "instrlab-no-such-command"}, quick)
	if r.Legacy.Outcome != OutcomeNoStart || r.Modern.Outcome != OutcomeNoStart {
		t.Fatalf("outcomes %s, %s, want no-start", r.Legacy.Outcome, r.Modern.Outcome)
	}
	if !strings.Contains(r.Legacy.Detail, `cannot start "instrlab-no-such-command"`) || !strings.Contains(r.Legacy.Detail, "not found") {
		t.Errorf("detail %q", r.Legacy.Detail)
	}
}

func TestProbeRepeat(t *testing.T) {
	r := Probe(context.Background(), testServer(t, "-eras legacy,modern"), Options{Timeout: quick.Timeout, Repeat: 3, Samples: NoSamples})
	if r.Startup.Legacy.N != 3 || r.Startup.Modern.N != 3 {
		t.Fatalf("startup samples %d and %d, want 3 each", r.Startup.Legacy.N, r.Startup.Modern.N)
	}
	if r.Startup.Legacy.Median > r.Startup.Legacy.Max || r.Startup.Legacy.Median <= 0 {
		t.Errorf("legacy startup %+v: median must be positive and at most the max", r.Startup.Legacy)
	}
}

func TestProbeUnsupportedTransport(t *testing.T) {
	r := Probe(context.Background(), Target{Name: "s", Transport: "sse", URL: "http://127.0.0.1:1/sse"}, quick)
	if r.Legacy.Outcome != OutcomeNoStart || !strings.Contains(r.Legacy.Detail, "sse is not supported") {
		t.Errorf("sse: %s: %s", r.Legacy.Outcome, r.Legacy.Detail)
	}
}

func TestStatsOf(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		in   []time.Duration
		want Stats
	}{
		{nil, Stats{}},
		{[]time.Duration{5 * ms}, Stats{N: 1, Median: Millis(5 * ms), Max: Millis(5 * ms)}},
		{[]time.Duration{9 * ms, 1 * ms, 5 * ms}, Stats{N: 3, Median: Millis(5 * ms), Max: Millis(9 * ms)}},
		{[]time.Duration{4 * ms, 2 * ms}, Stats{N: 2, Median: Millis(3 * ms), Max: Millis(4 * ms)}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, statsOf(tt.in)); diff != "" {
			t.Errorf("statsOf(%v) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}
