package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/lab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// readLog parses a lab message log.
func readLog(t *testing.T, path string) []lab.Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var entries []lab.Entry
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var e lab.Entry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		entries = append(entries, e)
	}
	// Every log begins with the serving process's start (lab.KindStart),
	// stamped no later than what follows; the rest are the messages. A log
	// that several processes share (check's two eras at once) holds a start
	// each, and their lines interleave: one process's start may be stamped
	// after another's first line, so the order is checked for a log of one
	// process only.
	if len(entries) == 0 || entries[0].Dir != lab.ServerDir || entries[0].Kind != lab.KindStart {
		t.Fatalf("%s: the log does not begin with the server's start entry: %+v", path, entries)
	}
	starts := 0
	for _, e := range entries {
		if e.Dir == lab.ServerDir && e.Kind == lab.KindStart {
			starts++
		}
	}
	if starts == 1 && len(entries) > 1 && entries[0].Time.After(entries[1].Time) {
		t.Errorf("%s: start %v after the first entry %v", path, entries[0].Time, entries[1].Time)
	}
	return entries[1:]
}

// recvMethods lists the methods of the requests and notifications received.
func recvMethods(entries []lab.Entry) []string {
	var ms []string
	for _, e := range entries {
		if e.Dir == lab.Recv && e.Method != "" {
			ms = append(ms, e.Method)
		}
	}
	return ms
}

func texts(t *testing.T, instr, era string) (initialize, discover lab.Text) {
	in, err := lab.ParseInstructions(instr)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.New(lab.Config{Instructions: in, Era: lab.Mode(era)})
	if err != nil {
		t.Fatal(err)
	}
	return l.Texts()
}

// TestGoSDKClientStdio runs the official go-sdk client, which probes
// server/discover and falls back to initialize, against the built binary.
func TestGoSDKClientStdio(t *testing.T) {
	for _, tc := range []struct {
		era, instr  string
		forceLegacy bool
		wantEra     lab.Reply // which text the client must hold: initialize or discover
		wantMethods []string
		wantErr     string
	}{
		{era: "legacy", instr: "ascii:1000", wantEra: lab.ReplyInitialize,
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized", "tools/list"}},
		{era: "dual", instr: "ascii:1000", wantEra: lab.ReplyDiscover,
			wantMethods: []string{"server/discover", "tools/list"}},
		{era: "dual", instr: "japanese:3000", forceLegacy: true, wantEra: lab.ReplyInitialize,
			wantMethods: []string{"initialize", "notifications/initialized", "tools/list"}},
		{era: "modern", instr: "ascii:5000", wantEra: lab.ReplyDiscover,
			wantMethods: []string{"server/discover", "tools/list"}},
		{era: "modern", instr: "ascii:5000", forceLegacy: true, wantErr: "unsupported protocol version"},
		{era: "legacy", instr: "none", wantEra: "",
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized", "tools/list"}},
	} {
		name := fmt.Sprintf("%s/%s/legacyclient=%v", tc.era, tc.instr, tc.forceLegacy)
		t.Run(name, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "log.jsonl")
			cmd := exec.Command(binary, "serve", "lab", "-era", tc.era, "-instr", tc.instr, "-log", logPath)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			opts := &mcp.ClientSessionOptions{}
			if tc.forceLegacy {
				opts.ProtocolVersion = "2025-11-25"
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "instrlab-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Connect error = %v, want one containing %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
			}
			if diff := cmp.Diff([]string{"lab_ping", "list_bins", "lookup_part"}, names); diff != "" {
				t.Errorf("tools mismatch (-want +got):\n%s", diff)
			}
			got := cs.InitializeResult().Instructions
			cs.Close()
			cmd.Wait()

			initText, discoverText := texts(t, tc.instr, tc.era)
			want := map[lab.Reply]string{lab.ReplyInitialize: initText.Text, lab.ReplyDiscover: discoverText.Text, "": ""}[tc.wantEra]
			if got != want {
				t.Errorf("client holds instructions %.80q…, want the %s text %.80q…", got, tc.wantEra, want)
			}
			if tc.wantEra == lab.ReplyDiscover && initText.Begin != "" && strings.Contains(got, initText.Begin) {
				t.Errorf("the discover text carries the initialize codeword %s", initText.Begin)
			}
			if diff := cmp.Diff(tc.wantMethods, recvMethods(readLog(t, logPath))); diff != "" {
				t.Errorf("methods the server saw mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// startHTTP starts the built binary with -http on a free loopback port and
// returns the endpoint URL.
func startHTTP(t *testing.T, args ...string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(binary, append([]string{"serve", "lab", "-http", addr}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	})
	url := "http://" + addr + "/mcp"
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return url
		}
	}
	t.Fatalf("lab did not listen on %s: %s", addr, stderr.String())
	return ""
}

func TestGoSDKClientHTTP(t *testing.T) {
	for _, tc := range []struct {
		era     string
		wantEra lab.Reply
	}{
		{"legacy", lab.ReplyInitialize},
		{"dual", lab.ReplyDiscover},
		{"modern", lab.ReplyDiscover},
	} {
		t.Run(tc.era, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "log.jsonl")
			url := startHTTP(t, "-era", tc.era, "-instr", "ascii:2048", "-log", logPath)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "instrlab-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lab_ping"}); err != nil {
				t.Fatal(err)
			}
			got := cs.InitializeResult().Instructions
			cs.Close()
			initText, discoverText := texts(t, "ascii:2048", tc.era)
			want := map[lab.Reply]string{lab.ReplyInitialize: initText.Text, lab.ReplyDiscover: discoverText.Text}[tc.wantEra]
			if got != want {
				t.Errorf("client holds %.60q…, want the %s text %.60q…", got, tc.wantEra, want)
			}
			methods := recvMethods(readLog(t, logPath))
			if len(methods) == 0 || methods[0] != "server/discover" {
				t.Errorf("methods the server saw = %v, want server/discover first", methods)
			}
			sawInit := strings.Contains(strings.Join(methods, " "), "initialize")
			if sawInit != (tc.era == "legacy") {
				t.Errorf("initialize seen = %v for era %s; methods %v", sawInit, tc.era, methods)
			}
			// Every request got its answer in the log.
			sent := 0
			for _, e := range readLog(t, logPath) {
				if e.Dir == lab.Send && (e.Kind == lab.KindResponse || e.Kind == lab.KindError) {
					sent++
				}
			}
			reqs := 0
			for _, e := range readLog(t, logPath) {
				if e.Dir == lab.Recv && e.Kind == lab.KindRequest {
					reqs++
				}
			}
			if sent != reqs {
				t.Errorf("log has %d requests and %d responses", reqs, sent)
			}
		})
	}
}

func TestHTTPOriginChecked(t *testing.T) {
	url := startHTTP(t, "-era", "legacy")
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"http://evil.example", http.StatusForbidden},
		{"http://127.0.0.1.evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"http://localhost:3000", http.StatusOK},
		{"http://127.0.0.1:9999", http.StatusOK},
		{"", http.StatusOK},
	} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("Origin %q: status %d, want %d", tc.origin, resp.StatusCode, tc.want)
		}
	}
}

// TestHTTPConcurrentSessionsLog checks that concurrent HTTP sessions never
// interleave or lose a log line.
func TestHTTPConcurrentSessionsLog(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	url := startHTTP(t, "-era", "legacy", "-instr", "japanese:4000", "-log", logPath)
	const sessions, calls = 16, 5
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for range sessions {
		wg.Go(func() {
			client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
			if err != nil {
				errs <- err
				return
			}
			defer cs.Close()
			for range calls {
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_bins"}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	perSession := map[string]int{}
	for _, e := range readLog(t, logPath) { // readLog fails on any torn line
		if e.Dir == lab.Recv && e.Method == "tools/call" {
			perSession[e.Session]++
		}
	}
	if len(perSession) != sessions {
		t.Errorf("log names %d sessions, want %d", len(perSession), sessions)
	}
	for s, n := range perSession {
		if n != calls {
			t.Errorf("session %s: %d tools/call logged, want %d", s, n, calls)
		}
	}
}

// rawServer runs the built binary on stdio for raw line tests.
type rawServer struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	pipe   io.ReadCloser // the read end of the server's stdout
	stdout *bufio.Reader
	log    string
}

func startRaw(t *testing.T, args ...string) *rawServer {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	cmd := exec.Command(binary, append([]string{"serve", "lab", "-log", logPath}, args...)...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &rawServer{cmd: cmd, stdin: stdin, pipe: stdout, stdout: bufio.NewReaderSize(stdout, 1<<20), log: logPath}
}

func (s *rawServer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (s *rawServer) reply(t *testing.T) map[string]any {
	t.Helper()
	type result struct {
		line string
		err  error
	}
	c := make(chan result, 1)
	go func() { l, err := s.stdout.ReadString('\n'); c <- result{l, err} }()
	select {
	case r := <-c:
		if r.err != nil {
			t.Fatalf("reading reply: %v", r.err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(r.line), &m); err != nil {
			t.Fatalf("reply is not JSON: %v: %.200s", err, r.line)
		}
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no reply within 10s")
		return nil
	}
}

func errCode(m map[string]any) float64 {
	e, _ := m["error"].(map[string]any)
	c, _ := e["code"].(float64)
	return c
}

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestStdioHugeLine(t *testing.T) {
	s := startRaw(t)
	// A line longer than the 16 MiB limit: -32700, and the server keeps serving.
	huge := `{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"` + strings.Repeat("x", lab.MaxLineLength) + `"}}`
	s.send(t, huge)
	if got := errCode(s.reply(t)); got != -32700 {
		t.Fatalf("16 MiB line: error code %v, want -32700", got)
	}
	s.send(t, initLine)
	if r := s.reply(t); r["result"] == nil {
		t.Fatalf("initialize after a huge line failed: %v", r)
	}
	s.stdin.Close()
	s.cmd.Wait()
	var sawHuge bool
	for _, e := range readLog(t, s.log) {
		if e.Kind == lab.KindInvalid && e.Bytes == len(huge) {
			sawHuge = true
			if !strings.HasPrefix(e.Raw, `{"jsonrpc":"2.0","id":5`) {
				t.Errorf("huge line's raw start not logged: %.40q", e.Raw)
			}
		}
	}
	if !sawHuge {
		t.Error("the huge line is not in the log with its size")
	}
}

func TestStdioInvalidUTF8(t *testing.T) {
	s := startRaw(t)
	s.send(t, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}")
	if got := errCode(s.reply(t)); got != -32700 {
		t.Fatalf("invalid UTF-8: error code %v, want -32700", got)
	}
	s.send(t, initLine)
	if r := s.reply(t); r["result"] == nil {
		t.Fatalf("initialize after invalid UTF-8 failed: %v", r)
	}
	s.stdin.Close()
	s.cmd.Wait()
	entries := readLog(t, s.log)
	if entries[0].Kind != lab.KindInvalid || entries[0].Raw == "" {
		t.Errorf("invalid UTF-8 line not logged raw: %+v", entries[0])
	}
}

// TestStdioEOFMidLine: input ends inside a line. The partial line is
// answered as malformed, the request before it is answered, and the
// server exits cleanly.
func TestStdioEOFMidLine(t *testing.T) {
	s := startRaw(t)
	io.WriteString(s.stdin, initLine+"\n"+`{"jsonrpc":"2.0","id":2,"meth`)
	s.stdin.Close()
	var codes []float64
	for range 2 {
		r := s.reply(t)
		codes = append(codes, errCode(r))
	}
	if diff := cmp.Diff([]float64{-32700, 0}, sortFloats(codes)); diff != "" {
		t.Errorf("replies mismatch (-want +got):\n%s", diff)
	}
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("server exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit at the end of its input")
	}
	var partial bool
	for _, e := range readLog(t, s.log) {
		partial = partial || (e.Kind == lab.KindInvalid && e.Raw == `{"jsonrpc":"2.0","id":2,"meth`)
	}
	if !partial {
		t.Error("the partial line is not in the log")
	}
}

func sortFloats(xs []float64) []float64 {
	if len(xs) == 2 && xs[0] > xs[1] {
		xs[0], xs[1] = xs[1], xs[0]
	}
	return xs
}

// TestStdioClientNeverReads: a client that writes but never reads stdout
// must not make the server lose log lines or crash; once the client goes
// away, the server exits.
func TestStdioClientNeverReads(t *testing.T) {
	s := startRaw(t, "-instr", "ascii:20000")
	s.send(t, initLine)
	s.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// Far more output than a pipe buffer holds (each list is ~1.5 KB).
	const n = 500
	go func() {
		for i := range n {
			fmt.Fprintf(s.stdin, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", 100+i)
		}
	}()
	time.Sleep(500 * time.Millisecond)
	if err := s.cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("server died while the client was not reading: %v", err)
	}
	// Now the client goes away without ever reading.
	s.stdin.Close()
	s.pipe.Close()
	done := make(chan error, 1)
	go func() { done <- s.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("server still running 15s after its client went away")
	}
	for _, e := range readLog(t, s.log) {
		if e.Kind == lab.KindInvalid {
			t.Errorf("unexpected invalid entry: %+v", e)
		}
	}
}

func TestServeLabUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "lab", "-instr", "ascii:10"}, "two codeword sentences"},
		{[]string{"serve", "lab", "-instr", "klingon:100"}, "want none or KIND:N, KIND one of ascii, japanese, emoji, cjkb, combining or lines"},
		{[]string{"serve", "lab", "-era", "future"}, "unknown era"},
		{[]string{"serve", "lab", "-on-unknown", "explode"}, "unknown -on-unknown"},
		{[]string{"serve", "lab", "-instr", "none", "-instr-file", "x"}, "exclusive"},
		{[]string{"serve", "lab", "-nope"}, "flag provided but not defined"},
		{[]string{"serve", "lab", "extra"}, "unexpected argument"},
		{[]string{"serve", "other"}, "unknown server"},
		{[]string{"frobnicate"}, "unknown command"},
		{[]string{"serve", "lab", "-instr-file", "/does/not/exist"}, "no such file"},
		{[]string{"serve", "lab", "-http", "0.0.0.0:0"}, "add -allow-remote"},
		{[]string{"serve", "lab", "-http", "[::]:0"}, "add -allow-remote"},
		{[]string{"serve", "lab", "-http", "example.com:0"}, "add -allow-remote"},
		{[]string{"serve", "lab", "-http", "nocolon"}, "not a loopback address"},
		{[]string{"serve", "lab", "-allow-remote"}, "-http only"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), tc.args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), tc.want) {
			t.Errorf("run(%q) = %v (stderr %q), want an error containing %q", tc.args, err, stderr.String(), tc.want)
			continue
		}
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("run(%q): %v is not a usage error (exit 2)", tc.args, err)
		}
	}
}

func TestServeLabPrint(t *testing.T) {
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"serve", "lab", "-instr", "ascii:5000", "-era", "dual", "-print"}, &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	initText, discoverText := texts(t, "ascii:5000", "dual")
	out := stdout.String()
	for _, want := range []string{initText.Text, discoverText.Text, initText.Begin, discoverText.End, "5000 characters"} {
		if !strings.Contains(out, want) {
			t.Errorf("-print output lacks %.60q", want)
		}
	}
}

func TestServeLabInstrFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "instr.md")
	own := "# My server\n\nUse the tools wisely. ✓ — unchanged, with \"quotes\" and trailing space \n"
	os.WriteFile(path, []byte(own), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, era := range []string{"legacy", "dual"} {
		client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(binary, "serve", "lab", "-era", era, "-instr-file", path)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := cs.InitializeResult().Instructions; got != own {
			t.Errorf("era %s: instructions %q, want the file unchanged %q", era, got, own)
		}
		cs.Close()
	}
}

func postJSON(url, body string, timeout time.Duration) (*http.Response, string, error) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, string(data), nil
}

const probeLine = `{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`

func TestHTTPOnUnknown(t *testing.T) {
	t.Run("error", func(t *testing.T) {
		url := startHTTP(t, "-era", "legacy")
		resp, body, err := postJSON(url, probeLine, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"code":-32601`) {
			t.Errorf("legacy probe over HTTP: %d %s, want 200 with -32601", resp.StatusCode, body)
		}
	})
	t.Run("hang", func(t *testing.T) {
		url := startHTTP(t, "-era", "legacy", "-on-unknown", "hang")
		_, _, err := postJSON(url, probeLine, 500*time.Millisecond)
		if err == nil || !strings.Contains(err.Error(), "Timeout") {
			t.Errorf("hang: POST returned %v, want a client timeout", err)
		}
		// The server still serves other requests.
		resp, body, err := postJSON(url, initLine, 5*time.Second)
		if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(body, "instructions") {
			t.Errorf("initialize after a hung probe: %v %v %.100s", err, resp, body)
		}
	})
	t.Run("crash", func(t *testing.T) {
		ln, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := ln.Addr().String()
		ln.Close()
		cmd := exec.Command(binary, "serve", "lab", "-http", addr, "-on-unknown", "crash")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		defer cmd.Process.Kill()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if c, err := net.Dial("tcp", addr); err == nil {
				c.Close()
				break
			}
		}
		postJSON("http://"+addr+"/mcp", probeLine, 2*time.Second)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("crash: exit %v, want exit status 1", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("crash: server still running after the probe")
		}
	})
}

// TestLogSurvivesKill: a server killed mid-stream leaves a log whose every
// complete line parses; at most the line being written is lost.
func TestLogSurvivesKill(t *testing.T) {
	s := startRaw(t, "-instr", "ascii:5000")
	go io.Copy(io.Discard, s.stdout)
	s.send(t, initLine)
	for i := range 2000 {
		fmt.Fprintf(s.stdin, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", 10+i)
	}
	// Kill it once it is logging the pings (the start entry, initialize
	// both ways, a ping), however slowly a loaded machine lets it start.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if data, _ := os.ReadFile(s.log); bytes.Count(data, []byte("\n")) >= 4 || time.Now().After(deadline) {
			break
		}
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	data, err := os.ReadFile(s.log)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(data, []byte("\n"))
	complete := lines[:len(lines)-1] // the text after the last newline is the line being written, if any
	if len(complete) < 4 {
		t.Fatalf("only %d log lines before the kill", len(complete))
	}
	for i, line := range complete {
		var e lab.Entry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("log line %d of %d is torn: %v: %.100q", i+1, len(complete), err, line)
		}
	}
	if last := lines[len(lines)-1]; len(last) != 0 {
		t.Logf("a partial last line of %d bytes (the one being written)", len(last))
	}
}
