package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/testutil"
	"github.com/instrlab/instrlab/lab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProxyStdioSameLogAsLab: a go-sdk client through serve proxy in front
// of serve lab gets the lab's texts, and the proxy's log names the same
// messages in the same order as the lab's own log, with the same sizes.
func TestProxyStdioSameLogAsLab(t *testing.T) {
	for _, era := range []lab.Mode{lab.ModeLegacy, lab.ModeBoth} {
		t.Run(string(era), func(t *testing.T) {
			dir := t.TempDir()
			labLog, proxyLog := filepath.Join(dir, "lab.jsonl"), filepath.Join(dir, "proxy.jsonl")
			cmd := exec.Command(binary, "serve", "proxy", "-log", proxyLog, "--", binary, "serve", "lab", "-eras", string(era), "-instr", "ascii:3000", "-log", labLog)
			ctx := context.Background()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list through the proxy: %v", err)
			}
			initText, discoverText := texts(t, "ascii:3000", string(era))
			if got := cs.InitializeResult().Instructions; got != initText.Text && got != discoverText.Text {
				t.Errorf("instructions through the proxy are not the lab's: %.80q", got)
			}
			if err := cs.Close(); err != nil {
				t.Logf("close: %v", err)
			}
			seq := func(entries []lab.Entry) []string {
				var s []string
				for _, e := range entries {
					if e.Dir == lab.Recv || e.Dir == lab.Send {
						s = append(s, fmt.Sprintf("%s %s %s %s %d", e.Dir, e.Kind, e.Method, e.ID, e.Bytes))
					}
				}
				return s
			}
			proxyEntries := testutil.LabLog(t, proxyLog)
			if diff := cmp.Diff(seq(testutil.LabLog(t, labLog)), seq(proxyEntries)); diff != "" {
				t.Errorf("the proxy's log differs from the lab's (-lab +proxy):\n%s", diff)
			}
			last := proxyEntries[len(proxyEntries)-1]
			if last.Kind != lab.KindExit || !strings.Contains(last.Note, "exit status 0 after the client closed its input") {
				t.Errorf("last entry %+v, want the server's clean exit", last)
			}
		})
	}
}

// TestProxyStdioBytesBothSides: what the client writes is what the server
// reads, and what the server writes is what the client reads, byte for
// byte (the server is tee, echoing its input and keeping a copy).
func TestProxyStdioBytesBothSides(t *testing.T) {
	dir := t.TempDir()
	seen := filepath.Join(dir, "server-read.bin")
	var in bytes.Buffer
	in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}` + "\n")
	in.WriteString("{ \"jsonrpc\" : \"2.0\",\"id\":2,\"method\":\"ping\" }\r\n")
	in.WriteString("garbage \xff\xfe\n\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/x","params":{"s":"日本語 \u00e9"}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"p":"` + strings.Repeat("x", 200_000) + `"}}`)
	cmd := exec.Command(binary, "serve", "proxy", "-log", filepath.Join(dir, "log.jsonl"), "--", "tee", seen)
	cmd.Stdin = bytes.NewReader(in.Bytes())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("proxy: %v", err)
	}
	got, _ := os.ReadFile(seen)
	if !bytes.Equal(got, in.Bytes()) {
		t.Errorf("the server read %d bytes that differ from the %d the client wrote", len(got), in.Len())
	}
	if !bytes.Equal(out, in.Bytes()) {
		t.Errorf("the client read %d bytes that differ from the %d the server wrote", len(out), in.Len())
	}
}

// proxied is serve proxy in front of serve lab, started by a shell that
// writes the lab's pid, driven over raw pipes.
type proxied struct {
	cmd       *exec.Cmd
	stdin     io.WriteCloser
	stdout    *bufio.Reader
	log       string
	serverPID func() int
}

func startProxied(t *testing.T, server string) *proxied {
	t.Helper()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	p := &proxied{log: filepath.Join(dir, "proxy.jsonl")}
	p.cmd = exec.Command(binary, "serve", "proxy", "-log", p.log, "--", "sh", "-c", "echo $$ > "+pidFile+"; exec "+server)
	p.stdin, _ = p.cmd.StdinPipe()
	out, _ := p.cmd.StdoutPipe()
	p.stdout = bufio.NewReader(out)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	p.serverPID = func() int {
		for range 500 {
			data, _ := os.ReadFile(pidFile)
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				return pid
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatal("the server never wrote its pid")
		return 0
	}
	return p
}

func (p *proxied) readLines(t *testing.T, n int) []string {
	t.Helper()
	var lines []string
	for range n {
		line, err := p.stdout.ReadString('\n')
		if err != nil {
			t.Fatalf("after %d lines: %v", len(lines), err)
		}
		lines = append(lines, line)
	}
	return lines
}

// count counts the log's entries in direction dir whose kind is kind.
func count(entries []lab.Entry, dir, kind string) int {
	n := 0
	for _, e := range entries {
		if e.Dir == dir && e.Kind == kind {
			n++
		}
	}
	return n
}

// TestProxyServerKilled: a server killed with SIGKILL mid-session. Every
// reply the client got is in the log, the proxy ends with an error, and
// the log's last entry says the server was killed while the client was
// connected.
func TestProxyServerKilled(t *testing.T) {
	p := startProxied(t, binary+" serve lab -instr ascii:2000")
	fmt.Fprintln(p.stdin, initLine)
	for i := range 50 {
		fmt.Fprintf(p.stdin, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", 10+i)
	}
	got := p.readLines(t, 51)
	if server, err := os.FindProcess(p.serverPID()); err == nil {
		server.Kill() // SIGKILL; syscall.Kill would not build for Windows
	}
	rest, _ := io.ReadAll(p.stdout) // the proxy closes its output when the server is gone
	err := p.cmd.Wait()
	if err == nil {
		t.Error("the proxy exited 0 though its server was killed mid-session")
	}
	if len(rest) != 0 {
		t.Errorf("%d bytes after the replies", len(rest))
	}
	entries := testutil.LabLog(t, p.log)
	if n := count(entries, lab.Send, lab.KindResponse); n != len(got) {
		t.Errorf("%d replies logged, the client got %d", n, len(got))
	}
	last := entries[len(entries)-1]
	if last.Kind != lab.KindExit || !strings.Contains(last.Note, "signal: killed while the client was connected") {
		t.Errorf("last entry %+v", last)
	}
}

// TestProxyClientKilled: the client (the process writing the proxy's
// stdin) is killed with SIGKILL with requests in flight. The server still
// answers them, the proxy logs every message, and the server is stopped.
func TestProxyClientKilled(t *testing.T) {
	dir := t.TempDir()
	var lines strings.Builder
	lines.WriteString(initLine + "\n")
	for i := range 200 {
		fmt.Fprintf(&lines, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", 10+i)
	}
	requests := filepath.Join(dir, "requests")
	os.WriteFile(requests, []byte(lines.String()), 0o644)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	client := exec.Command("sh", "-c", "cat "+requests+"; exec sleep 60")
	client.Stdout = pw
	logPath := filepath.Join(dir, "proxy.jsonl")
	proxy := exec.Command(binary, "serve", "proxy", "-log", logPath, "--", binary, "serve", "lab")
	proxy.Stdin = pr
	out, _ := proxy.StdoutPipe()
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	if err := proxy.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	pw.Close()
	r := bufio.NewReader(out)
	if _, err := r.ReadString('\n'); err != nil { // the initialize reply: the client is mid-session
		t.Fatal(err)
	}
	client.Process.Kill()
	client.Wait()
	rest, _ := io.ReadAll(r)
	if err := proxy.Wait(); err != nil {
		t.Errorf("proxy: %v (want a clean end once the client is gone)", err)
	}
	replies := 1 + bytes.Count(rest, []byte("\n"))
	entries := testutil.LabLog(t, logPath)
	if n := count(entries, lab.Recv, lab.KindRequest); n != 201 {
		t.Errorf("%d requests logged, the client sent 201", n)
	}
	if n := count(entries, lab.Send, lab.KindResponse); n != replies || n != 201 {
		t.Errorf("%d replies logged, %d relayed, want 201", n, replies)
	}
	last := entries[len(entries)-1]
	if last.Kind != lab.KindExit || !strings.Contains(last.Note, "after the client closed its input") {
		t.Errorf("last entry %+v", last)
	}
}

// TestProxyBadServers: a server that fails to start, exits mid-session or
// writes garbage is logged as such, with its stderr.
func TestProxyBadServers(t *testing.T) {
	for _, tc := range []struct {
		name, server string
		wantErr      bool
		want         []string // kind: note or raw fragments, in order
	}{
		{"missing", "/nonexistent/server", true, []string{"failure: starting the server"}},
		{"exits", "echo 'cannot open db: permission denied' >&2; read x; exit 3", true,
			[]string{"stderr: cannot open db: permission denied", "exit status 3 while the client was connected"}},
		{"garbage", "echo 'Server listening on port 3000'; cat", false,
			[]string{"invalid: the server wrote a line that is not JSON-RPC", "exit status 0 after the client closed its input"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "proxy.jsonl")
			args := []string{"serve", "proxy", "-log", logPath, "--", "sh", "-c", tc.server}
			if tc.name == "missing" {
				args = []string{"serve", "proxy", "-log", logPath, "--", tc.server}
			}
			cmd := exec.Command(binary, args...)
			stdin, _ := cmd.StdinPipe() // open until the proxy ends: the client stays connected
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(stdin, initLine)
			if tc.name == "garbage" {
				stdin.Close()
			}
			err := cmd.Wait()
			stdin.Close()
			if (err != nil) != tc.wantErr {
				t.Errorf("proxy error %v, want error %v", err, tc.wantErr)
			}
			var got []string
			for _, e := range testutil.LabLog(t, logPath) {
				if e.Kind == lab.KindRequest {
					continue
				}
				got = append(got, e.Kind+": "+e.Note+e.Raw)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("entries %q, want %d like %q", got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) && !strings.Contains(got[i], w) {
					t.Errorf("entry %d: %q, want %q", i, got[i], w)
				}
			}
		})
	}
}

func TestServeProxyUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "proxy"},
		{"serve", "proxy", "-http", ":0"},
		{"serve", "proxy", "-upstream", "http://127.0.0.1:1/mcp", "--", "x"},
		{"serve", "proxy", "-http", ":0", "-upstream", "http://127.0.0.1:1/mcp", "--", "x"},
		{"serve", "proxy", "-http", ":0", "-upstream", "ftp://x"},
	} {
		var stderr bytes.Buffer
		if code := exitCode(run(context.Background(), args, io.Discard, &stderr), &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
}
