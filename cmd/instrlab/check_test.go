package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/instrlab/instrlab/schema"
	"github.com/instrlab/instrlab/schema/schematest"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/testutil"
	"github.com/instrlab/instrlab/lab"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// fixTimings makes a probe result repeatable: every timing becomes a fixed
// value, so that golden files do not change with the machine's load.
func fixTimings(r probe.Result) probe.Result {
	fix := func(e *probe.EraResult) {
		if e.FirstReply > 0 {
			e.FirstReply = probe.Millis(5 * time.Millisecond)
		}
		e.Elapsed = probe.Millis(10 * time.Millisecond)
	}
	fix(&r.Legacy)
	fix(&r.Modern)
	if r.Survival.Verdict != probe.SurvivalSilent {
		r.Survival.Wait = probe.Millis(5 * time.Millisecond)
	}
	if f := r.Survival.Fallback; f != nil {
		f.Elapsed = probe.Millis(time.Millisecond)
	}
	for _, st := range []*probe.Stats{&r.Startup.Legacy, &r.Startup.Modern} {
		if st.N > 0 {
			st.Median, st.Max = probe.Millis(5*time.Millisecond), probe.Millis(5*time.Millisecond)
		}
	}
	if r.Startup.CPUs > 0 {
		r.Startup.Load, r.Startup.CPUs = 0.5, 2 // the machine's, not the server's
	}
	return r
}

// runCheckTest runs "instrlab check" in process with fixed timings and no
// cap setting in the environment; it returns stdout, stderr and the exit
// code.
func runCheckTest(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv("COLUMNS", "")
	return runCheckIn(t, func(r probe.Result) probe.Result {
		r = fixTimings(r)
		// How many start-up samples were taken depends on the load: a
		// start-up slowed by a busy machine (CI's race tests beside)
		// gets the extra samples a quick one does not (TestCheckSamples
		// holds them).
		for _, st := range []*probe.Stats{&r.Startup.Legacy, &r.Startup.Modern} {
			st.N = min(st.N, 1)
		}
		return r
	}, args...)
}

// runCheckWide is runCheckTest with lines as wide as they come ($COLUMNS
// 1000), for tests that look for a phrase a narrower line could break.
func runCheckWide(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv("COLUMNS", "1000")
	return runCheckIn(t, fixTimings, args...)
}

func runCheckIn(t *testing.T, fix func(probe.Result) probe.Result, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv("CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH", "")
	probeServer = func(ctx context.Context, tg probe.Target, o probe.Options) probe.Result {
		return fix(probe.Probe(ctx, tg, o))
	}
	t.Cleanup(func() { probeServer = probe.Probe })
	// The lab binary is run by name, from PATH, so that the width of
	// its path (a temporary directory's) does not change where lines wrap.
	t.Setenv("PATH", filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	args = slices.Clone(args)
	for i, a := range args {
		if a == binary {
			args[i] = "instrlab"
		}
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), append([]string{"check"}, args...), &stdout, &stderr)
	code := exitCode(err, &stderr)
	out := strings.ReplaceAll(stdout.String(), binary, "instrlab")
	return out, stderr.String(), code
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	testutil.Golden(t, filepath.Join("testdata", "check", name), []byte(got), *update)
}

// envNames matches check -json's list of the variables a server was
// started with: the caller's environment, so the machine's, not check's.
var envNames = regexp.MustCompile(`("env_names": \[)[^\]]*(\])`)

// stableEnvNames replaces each list of variable names in out, after
// checking that it holds PATH, so that a golden does not depend on the
// environment the tests run in (CI's has GOCACHE, INSTRLAB_E2E and more).
func stableEnvNames(t *testing.T, out string) string {
	t.Helper()
	for _, m := range envNames.FindAllString(out, -1) {
		if !strings.Contains(m, `"PATH"`) {
			t.Errorf("the server's variables do not include PATH: %s", m)
		}
	}
	return envNames.ReplaceAllString(out, `${1}"(the caller's environment, names only: PATH and the rest)"${2}`)
}

// TestCheckGolden checks the human and JSON output against the lab server.
func TestCheckGolden(t *testing.T) {
	mdFile := filepath.Join("testdata", "check", "instructions.md") // the server runs here too
	tests := []struct {
		name  string
		args  []string
		code  int
		json  bool
		extra []string // flags before --
	}{
		{name: "dual-5000", args: []string{"-eras", "legacy,modern", "-instr", "ascii:5000"}, json: true},
		{name: "legacy-crash", args: []string{"-eras", "legacy", "-on-unknown", "crash"}, code: 1},
		{name: "modern", args: []string{"-eras", "modern"}, json: true},
		{name: "japanese-3000", args: []string{"-instr", "japanese:3000"}},
		{name: "none", args: []string{"-eras", "legacy,modern", "-instr", "none"}},
		{name: "sections", args: []string{"-instr-file", mdFile}, extra: []string{"-show"}},
		// A version without a profile of its own, in the atlas's range of
		// one that has one.
		{name: "profile-claude-code@2.1.310", args: []string{"-instr", "ascii:5000"}, extra: []string{"-profile", "claude-code@2.1.310"}},
		// A tool description longer than the measured caps: cut by Qwen
		// Code, cut where sent by Claude Code, never sent by Codex.
		{name: "tool-desc-6000", args: []string{"-instr", "ascii:1000", "-tool-desc", "ascii:6000"}, json: true,
			extra: []string{"-profile", "qwen@0.24.4,claude-code@2.1.285,claude-code@2.1.328,codex@0.169.0"}},
		// Findings in several arms and variants, each said once with the
		// clients and arms it holds for: Claude Code's cut in each era,
		// Qwen Code's cut tool description in three of its four arms.
		{name: "arms", args: []string{"-eras", "legacy,modern", "-instr", "ascii:5000", "-tool-desc", "ascii:400"}},
		// A server whose tools/list order changes from one listing to the
		// next (tool-order); the other servers here list theirs by name.
		{name: "tool-order", args: []string{"-eras", "legacy,modern", "-tool-order", "rotate"}, json: true},
		{name: "rules", args: []string{"-eras", "legacy,modern", "-instr", "ascii:3000"}, code: 1,
			extra: []string{"-max-chars", "2500", "-max-tokens", "600", "-require", "END codeword", "-require-same-eras"}},
		// The lab's surface tools against profiles with a measured
		// surface: names cut, renamed or not offered, schema keywords
		// dropped and rewritten, structured results in one form;
		// -max-name fails on the names a client's prefix takes past it.
		// Names past a limit a provider documents, as the clients send
		// them: Continue CLI (OpenAI Chat Completions) and ADK (Gemini)
		// send some whole; Claude Code's API documents none.
		{name: "documented", args: []string{"-surface", "names"}, json: true,
			extra: []string{"-profile", "continue@1.5.47,adk@2.0.0,claude-code@2.1.332"}},
		{name: "surface", args: []string{"-surface", "results,schemas,names"}, code: 1,
			extra: []string{"-profile", "codex@0.171.0,claude-code@2.1.332,droid@0.225.2,qwen@0.24.4", "-max-name", "64", "-v"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server := append([]string{"--", binary, "serve", "lab"}, tt.args...)
			args := append(append(append([]string{}, tt.extra...), "-name", "lab"), server...)
			out, stderr, code := runCheckTest(t, args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			golden(t, tt.name+".txt", out)
			if tt.name == "dual-5000" { // the worked example of docs/check.md
				docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "check.md"))
				if err != nil || !strings.Contains(string(docs), "```\n$ instrlab check -- instrlab serve lab -eras legacy,modern -instr ascii:5000\n"+out+"```\n") {
					t.Errorf("docs/check.md's worked example is not this output (%v):\n%s", err, out)
				}
			}
			if tt.json {
				out, _, _ := runCheckTest(t, append([]string{"-json"}, args...)...)
				if err := schematest.Validate(schema.Check, []byte(out)); err != nil {
					t.Errorf("check -json does not follow its schema: %v", err)
				}
				golden(t, tt.name+".json", stableEnvNames(t, out))
			}
		})
	}
}

// TestCheckBadInput: servers that cannot be checked each give a clear
// finding and exit status, never a hang or a stack trace.
func TestCheckBadInput(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body>Sign in</body></html>")
	}))
	defer html.Close()
	redirect := httptest.NewServer(http.RedirectHandler("http://127.0.0.1:1/login", http.StatusFound))
	defer redirect.Close()

	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"not found", []string{"--", "instrlab-no-such-server"}, 3, `cannot start "instrlab-no-such-server"`},
		{"exits at once", []string{"--", binary, "serve", "lab", "-instr", "bogus"}, 3, "exited with status 2 without replying"},
		{"garbage on stdout", []string{"--", "sh", "-c", "echo Starting server...; exec " + binary + " serve lab"}, 1, `stdout carries lines that are not JSON-RPC, e.g. "Starting server..."`},
		{"http refused", []string{refused}, 3, "connection refused"},
		{"http html", []string{html.URL}, 3, "HTML page"},
		{"http redirect", []string{redirect.URL}, 3, `redirect to "http://127.0.0.1:1/login"`},
		{"hang on probe", []string{"-timeout", "2s", "--", binary, "serve", "lab", "-on-unknown", "hang"}, 0, "no answer to server/discover within check's -timeout 2s"},
		{"slower than the timeout", []string{"-timeout", "500ms", "--", binary, "serve", "lab", "-eras", "legacy,modern", "-init-delay", "2s", "-discover-delay", "2s"}, 3, "no reply in either era within check's -timeout 500ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			out, stderr, code := runCheckWide(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("output does not contain %q:\n%s", tt.want, out)
			}
			if strings.Contains(out+stderr, "goroutine ") || strings.Contains(out+stderr, "panic") {
				t.Errorf("stack trace:\n%s%s", out, stderr)
			}
			if d := time.Since(start); d > 15*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestCheckHelp(t *testing.T) {
	_, stderr, code := runCheckTest(t, "-h")
	if code != exitOK {
		t.Errorf("check -h: exit %d", code)
	}
	golden(t, "help.txt", stderr)
}

func TestCheckUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, "name a server"},
		{[]string{"-config", "x.json", "-scan"}, "-config and -scan are exclusive"},
		{[]string{"-repeats", "0", "--", "x"}, "-repeats must be at least 1"},
		{[]string{"-server", "a", "--", "x"}, "-server needs -config or -scan"},
		{[]string{"node", "server.js"}, "put it after --"},
		{[]string{"http://127.0.0.1:1/mcp", "-json"}, `unexpected argument "-json" after the URL`},
		{[]string{"-profile", "nobody@1", "--", "x"}, `no profile for client "nobody"`},
		{[]string{"-profile", "claude-code@9.9.9", "--", "x"}, "does not list claude-code@9.9.9 among the 473 published versions"},
		{[]string{"-profile", "claude-code@2.1.293", "--", "x"}, "no built-in profile is of a version in that range"},
		{[]string{"-scan", "-name", "x"}, "-name is for a command or URL"},
		{[]string{"-require", "", "--", "x"}, "-require needs a non-empty phrase"},
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"-call", "=", "--", "x"}, "-call: \"=\": want TOOL or TOOL=JSON"},
		{[]string{"-call", "get=[1]", "--", "x"}, "the input of get is not a JSON object"},
	}
	for _, tt := range tests {
		_, stderr, code := runCheckTest(t, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("check %q: exit %d, stderr %q; want %d and %q", tt.args, code, stderr, exitUsage, tt.want)
		}
	}
}

// TestCheckCall: check -call on the lab, with the built-in profiles of
// Cline CLI 3.0.65 and Claude Code 2.1.332 (their result budgets: 7,961
// and 50,000 characters, measured). A result of 9,000 characters is past
// Cline's and within Claude Code's: one result-cut finding, for Cline,
// saying what its model gets; the call's measure is printed; a tool the
// server does not list is not called, and is a call-failed finding, not a
// failed check.
func TestCheckCall(t *testing.T) {
	out, stderr, code := runCheckWide(t, "-v", "-profile", "cline@3.0.65,claude-code@2.1.332", "-call", "result_size", "-call", "nope",
		"--", binary, "serve", "lab", "-surface", "size", "-result-size", "ascii:9000")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s\n%s", code, stderr, out)
	}
	for _, want := range []string{
		"called result_size: ok in",
		"text 9,000 characters (9,000 UTF-16 units, 9,000 bytes,",
		"not called nope: the server's tools/list does not name it",
		"result of result_size: the model gets its content text; its content text of 9,000 characters whole (up to 50,000 measured)",
		"result of result_size: the model gets its content text; its content text of 9,000 characters not whole, past the 7,961 measured: cuts it: the model gets its first 3,950 characters",
		"result-cut",
		"call-failed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "is longer than the 7,961 the client gives the model whole"); n != 1 {
		t.Errorf("%d result-cut findings for Cline, want 1:\n%s", n, out)
	}
	if strings.Contains(out, "the 50,000 the client gives") {
		t.Errorf("a result within Claude Code's budget is a finding:\n%s", out)
	}
}

// TestCheckCallOnce: with -repeats 2 a listed tool is called once (the
// first run; the second times the start-up), an unlisted one never, as
// the lab's message log shows.
func TestCheckCallOnce(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log.jsonl")
	_, stderr, code := runCheckTest(t, "-repeats", "2", "-call", "result_size", "-call", "nope",
		"--", binary, "serve", "lab", "-surface", "size", "-result-size", "ascii:100", "-log", log)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var called []string
	for _, e := range testutil.LabLog(t, log) {
		if e.Dir == lab.Recv && e.Method == "tools/call" {
			called = append(called, string(e.Body))
		}
	}
	if len(called) != 1 || !strings.Contains(called[0], `"result_size"`) {
		t.Errorf("tools/call received %d times, want once, for result_size: %q", len(called), called)
	}
}

// TestCheckSamples: a server that starts in a quarter of a client's
// wait or more (Codex CLI 0.171.0 waits 1.19 s: 298 ms) is started
// probe.DefaultSamples times more, each sending initialize alone on a
// process of its own, and its start-up is their median and maximum.
func TestCheckSamples(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log.jsonl")
	out, stderr, code := runCheckWide(t, "-json", "--", binary, "serve", "lab", "-init-delay", "350ms", "-log", log)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	n := 0
	for _, e := range testutil.LabLog(t, log) {
		if e.Dir == lab.Recv && e.Method == "initialize" {
			n++
		}
	}
	// The legacy era's, the fallback's after server/discover, the samples'.
	if n != 2+probe.DefaultSamples {
		t.Errorf("initialize sent %d times, want %d", n, 2+probe.DefaultSamples)
	}
	if !strings.Contains(out, `"n": 4`) {
		t.Errorf("check -json's legacy start-up is not of 4 samples:\n%s", out)
	}
}

// TestCheckWire checks what check sends, from the lab's own message log:
// each era on its own process, the modern requests with the 2026-07-28
// _meta a client sends.
func TestCheckWire(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log.jsonl")
	_, stderr, code := runCheckTest(t, "--", binary, "serve", "lab", "-eras", "legacy,modern", "-log", log)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	entries := testutil.LabLog(t, log)
	// The eras run at once on two processes that share the log: their
	// lines interleave, so each era's requests are compared apart, told
	// by the modern _meta.
	var legacy, modern []string
	for _, e := range entries {
		if e.Dir != lab.Recv {
			continue
		}
		if e.Method == "server/discover" || e.Meta != nil {
			modern = append(modern, e.Method)
		} else {
			legacy = append(legacy, e.Method)
		}
	}
	// The lab starts far inside every client's wait: no start-up sample
	// beside the legacy era's initialize (TestCheckSamples has a slower
	// server).
	others := slices.DeleteFunc(slices.Clone(legacy), func(m string) bool { return m == "initialize" })
	if n := len(legacy) - len(others); n != 1 {
		t.Errorf("initialize sent %d times in the legacy era, want 1: %q", n, legacy)
	}
	legacy = others
	// tools/list twice: a server whose order changes is told (tool-order).
	if diff := cmp.Diff([]string{"notifications/initialized", "tools/list", "tools/list"}, legacy); diff != "" {
		t.Errorf("legacy methods after initialize mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"server/discover", "tools/list", "tools/list"}, modern); diff != "" {
		t.Errorf("modern methods mismatch (-want +got):\n%s", diff)
	}
	for _, e := range entries {
		if e.Dir != lab.Recv || (e.Method != "server/discover" && !(e.Method == "tools/list" && e.Meta != nil)) {
			continue
		}
		var meta map[string]any
		if err := json.Unmarshal(e.Meta, &meta); err != nil {
			t.Fatalf("%s: _meta %s: %v", e.Method, e.Meta, err)
		}
		for _, k := range []string{"io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/clientCapabilities"} {
			if _, ok := meta[k]; !ok {
				t.Errorf("%s: _meta lacks %s: %s", e.Method, k, e.Meta)
			}
		}
		if meta["io.modelcontextprotocol/protocolVersion"] != "2026-07-28" {
			t.Errorf("%s: protocol version %v", e.Method, meta["io.modelcontextprotocol/protocolVersion"])
		}
	}
}

// TestCheckConfig checks a config with two servers, and -scan with a fake
// HOME and project directory.
func TestCheckConfig(t *testing.T) {
	dir := t.TempDir()
	// The servers' command is the binary's name, found on the PATH
	// runCheckIn sets, so that the width of its temporary directory does
	// not move where the server lines wrap.
	cfg := `{"mcpServers": {
  "alpha": {"command": "instrlab", "args": ["serve", "lab", "-instr", "ascii:1500"]},
  "beta": {"command": "instrlab", "args": ["serve", "lab", "-eras", "legacy,modern", "-instr", "japanese:1200"]}
}}`
	path := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCheckTest(t, "-config", path)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	golden(t, "config.txt", strings.ReplaceAll(out, dir, "DIR"))

	out, _, code = runCheckTest(t, "-config", path, "-server", "beta")
	if code != 0 || strings.Contains(out, "alpha") || !strings.Contains(out, "beta") {
		t.Errorf("-server beta: exit %d:\n%s", code, out)
	}

	home := t.TempDir()
	t.Setenv("HOME", home)
	user := fmt.Sprintf(`{"mcpServers": {"gamma": {"command": %q, "args": ["serve", "lab", "-eras", "modern"]}}}`, binary)
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	out, stderr, code = runCheckTest(t, "-scan")
	if code != 0 {
		t.Fatalf("-scan: exit %d; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"alpha", "beta", "gamma", "(project)", "(user)"} {
		if !strings.Contains(out, want) {
			t.Errorf("-scan output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckSetting: the cap setting in the environment is applied when it
// is plain digits and ignored, with a finding, when it is not.
func TestCheckSetting(t *testing.T) {
	for _, tt := range []struct{ value, want string }{
		{"25000", "keeps all 5,000 characters (cap 25,000 UTF-16 units, set, CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH=25000)"},
		{"25,000", "setting-ignored"},
	} {
		probeServer = probe.Probe
		var stdout, stderr bytes.Buffer
		t.Setenv("CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH", tt.value)
		t.Setenv("COLUMNS", "1000")
		err := run(context.Background(), []string{"check", "-v", "--", binary, "serve", "lab", "-instr", "ascii:5000"}, &stdout, &stderr)
		if err != nil || !strings.Contains(stdout.String(), tt.want) {
			t.Errorf("%s: err %v, output lacks %q:\n%s", tt.value, err, tt.want, stdout.String())
		}
	}
}

// TestCheckHTTP checks the lab over Streamable HTTP in process.
func TestCheckHTTP(t *testing.T) {
	in, _ := lab.ParseInstructions("ascii:1000")
	l, err := lab.New(lab.Config{Instructions: in, Eras: lab.ModeBoth})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()
	out, stderr, code := runCheckTest(t, "-name", "lab", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	golden(t, "http-dual.txt", strings.ReplaceAll(out, srv.URL, "URL"))
}

// TestCheckPersona checks the persona server, built from this repository,
// over stdio and Streamable HTTP: one text in both eras.
func TestCheckPersona(t *testing.T) {
	dir := t.TempDir()
	persona := filepath.Join(dir, "persona")
	if out, err := exec.Command("go", "build", "-o", persona, "../persona").CombinedOutput(); err != nil {
		t.Fatalf("building persona: %v\n%s", err, out)
	}
	db := filepath.Join(dir, "persona.db")
	out, stderr, code := runCheckWide(t, "-v", "-require-same-eras", "--", persona, "serve", "-db", db)
	if code != 0 {
		t.Fatalf("stdio: exit %d; stderr:\n%s\n%s", code, stderr, out)
	}
	for _, want := range []string{"both send the same instructions", "Claude Code 2.1.328 in arm v2: modern era"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdio: output lacks %q:\n%s", want, out)
		}
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(persona, "serve", "-db", db, "-http", addr)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("persona did not listen on %s", addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	out, stderr, code = runCheckTest(t, "-require-same-eras", "http://"+addr+"/mcp")
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "both send the same instructions") {
		t.Errorf("http: exit %d; stderr:\n%s\n%s", code, stderr, out)
	}
}

// TestCheckProfiles checks check's view of one server for each built-in
// profile alone (-profile ID), in full (-v), on lines as long as they
// come: the cap, the placement, each variant in its own view, and "not
// measured" where the profile's evidence says so.
// A new built-in profile needs its golden file (go test -run
// TestCheckProfiles -update).
func TestCheckProfiles(t *testing.T) {
	builtin, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range builtin {
		t.Run(p.ID(), func(t *testing.T) {
			out, stderr, code := runCheckWide(t, "-v", "-profile", p.ID(), "-name", "lab", "--", binary, "serve", "lab", "-eras", "legacy,modern", "-instr", "ascii:5000")
			if code != 0 {
				t.Errorf("exit %d; stderr:\n%s", code, stderr)
			}
			golden(t, "profile-"+p.ID()+".txt", out)
			for _, v := range profiles.Expand([]profiles.Profile{p}) {
				if !strings.Contains(out, "  "+v.Title()+":") {
					t.Errorf("no view of %s", v.Title())
				}
			}
			if p.Model == "" && !strings.Contains(out, "measured with: model not measured") {
				t.Error("a profile without a model does not say it was not measured")
			}
			// What the evidence does not cover is printed as not measured.
			if l := p.ToolDescriptions; l.Cap == 0 && l.AtLeast == 0 && !l.Unsent && !strings.Contains(out, "tool descriptions: cap not measured") {
				t.Error("an unmeasured tool description cap is not printed as not measured")
			}
			if l := p.ToolDescriptions; l.Unsent && (!strings.Contains(out, "tool descriptions: not sent") || !strings.Contains(out, "tools: no description of the 3 tools reaches the model")) {
				t.Error("descriptions measured not to reach the model are not said to be unsent")
			}
			if l := p.ToolDescriptions; !l.Unsent && l.Via != "" && !strings.Contains(out, "tools: 3 of 3 descriptions kept whole") {
				t.Error("a measured tool description cap gives no prediction for the server's tools")
			}
			if l := p.ToolDescriptions; l.Cap > 0 && !l.Measured && !strings.Contains(out, "(not measured: from documentation)") {
				t.Error("a documented tool description cap is not marked as not measured")
			}
			waitBudget := slices.ContainsFunc(p.Budgets, func(b profiles.Budget) bool { return b.Name == "wait" && len(b.Settings) == 0 })
			if p.Startup.Waited == nil && !waitBudget && !strings.Contains(out, "slow server: whether it waits not measured") {
				t.Error("an unmeasured wait for a slow server is not printed as not measured")
			}
			if waitBudget && (!strings.Contains(out, "waits ") || !strings.Contains(out, "(measured: instrlab budget,")) {
				t.Error("a measured wait budget is not printed in the profile's slow-server line")
			}
			if p.Instructions.Cap == 0 && p.Instructions.AtLeast > 0 && !strings.Contains(out, "a cap above that not measured") && !strings.Contains(out, "not measured beyond it") {
				t.Error("a cap never reached is printed as a fact")
			}
		})
	}
}

// TestCheckWidth: no line of check's text is wider than the width it
// wraps to, with or without the details (-v) and the instructions in full
// (-show), for English, Japanese (two columns a character) and text with
// escapes; except the server's own text that -show prints, which is its
// lines as the server sent them (TestCheckShowVerbatim).
func TestCheckWidth(t *testing.T) {
	hostile := writeFile(t, "hostile.txt", "Use the tools.\x1b[2J "+strings.Repeat("x", 200)+" \u202eevil\u202c\n\n"+strings.Repeat("word ", 300))
	for _, server := range [][]string{
		{"-eras", "legacy,modern", "-instr", "ascii:5000", "-tool-desc", "ascii:400"},
		{"-instr", "japanese:3000"},
		{"-instr-file", hostile},
	} {
		for _, width := range []int{40, 80, 120} {
			for _, flag := range []string{"-v", "-show"} {
				t.Setenv("COLUMNS", strconv.Itoa(width))
				out, stderr, _ := runCheckIn(t, fixTimings, append([]string{flag, "--", binary, "serve", "lab"}, server...)...)
				if out == "" {
					t.Fatalf("%v: no output; stderr:\n%s", server, stderr)
				}
				inText := false
				for i, l := range strings.Split(out, "\n") {
					switch {
					case strings.HasPrefix(l, "  --- end of "):
						inText = false
					case strings.HasPrefix(l, "  --- ") && strings.Contains(l, " instructions"):
						inText = true
					}
					if w := table.DisplayWidth(l); w > width && !(inText && !strings.HasPrefix(l, "  ✂ ")) {
						t.Errorf("%v %s at %d columns: line %d is %d wide: %q", server, flag, width, i+1, w, l)
					}
				}
			}
		}
	}
}

// TestCheckShowVerbatim: -show prints the server's instructions as it sent
// them, each of its lines whole whatever the width (escaped where a
// character must be), the cut marks between; on main it re-wrapped them
// at the terminal's width, so they were no longer the server's lines.
func TestCheckShowVerbatim(t *testing.T) {
	long := strings.Repeat("word ", 40) + "end" // 203 characters, before any profile's cut
	text := "# Title\n  indented line\tand a tab\n" + long + "\n\n" + strings.Repeat("tail ", 40)
	file := writeFile(t, "verbatim.txt", text)
	t.Setenv("COLUMNS", "40")
	out, stderr, _ := runCheckIn(t, fixTimings, "-show", "--", binary, "serve", "lab", "-instr-file", file)
	for _, l := range []string{"# Title", long, "  indented line\tand a tab"} {
		if !strings.Contains(out, "\n"+l+"\n") {
			t.Errorf("-show lacks the server's line %q whole:\n%s\n%s", l, out, stderr)
		}
	}
}

// TestCheckTurnNeverEnds: a modern-only server whose tools ask in
// input_required results, checked with -call: the profiles' asks made
// alone (the protocol-asks row) make a turn-never-ends finding for the
// client measured never to go on after that ask (Copilot CLI 1.0.102,
// sampling), none for an ask it goes on after (elicitation), nor for a
// client that goes on after both (Claude Code 2.1.332).
func TestCheckTurnNeverEnds(t *testing.T) {
	out, stderr, code := runCheckWide(t, "-v", "-profile", "copilot@1.0.102,claude-code@2.1.332",
		"-call", "protocol_sample", "-call", "protocol_elicit_form",
		"--", binary, "serve", "lab", "-surface", "protocol", "-eras", "modern")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s\n%s", code, stderr, out)
	}
	if n := strings.Count(out, "turn-never-ends   tool"); n != 1 {
		t.Errorf("%d turn-never-ends findings, want 1 (Copilot CLI, protocol_sample):\n%s", n, out)
	}
	for _, want := range []string{
		"turn-never-ends: GitHub Copilot CLI 1.0.102 (default), tool protocol_sample;",
		"asks for sampling/createMessage in input_required",
		"sampling/createMessage in input_required, asked alone: " + labvocab.DoesAloneNeverEnds,
		"elicitation/create in input_required, asked alone: " + labvocab.DoesAloneGoesOn,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
