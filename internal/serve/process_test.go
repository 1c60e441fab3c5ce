package serve

import (
	"bytes"
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
	"syscall"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/testutil"
	"github.com/instrlab/instrlab/lab"
)

// asServeEnv makes the test binary "instrlab serve" with its arguments,
// run as cmd/instrlab runs it, for the tests whose server must be a
// process of its own: one killed, one that exits, one whose client never
// reads its stdout.
const asServeEnv = "INSTRLAB_SERVE_TEST_AS_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(asServeEnv) != "" {
		cli.Main("instrlab", Command)
	}
	os.Exit(m.Run())
}

// serveCommand is the test binary as "instrlab serve" args.
func serveCommand(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asServeEnv+"=1")
	return cmd
}

// TestStdioClientNeverReads: a client that writes but never reads stdout
// must not make the server lose log lines or crash; once the client goes
// away, the server exits.
func TestStdioClientNeverReads(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	s := testutil.StartStdio(t, serveCommand(t, "lab", "-log", logPath, "-instr", "ascii:20000"))
	io.WriteString(s.Stdin, initLine+"\n"+`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	// Far more output than a pipe buffer holds (each list is ~1.5 KB).
	const n = 500
	go func() {
		for i := range n {
			fmt.Fprintf(s.Stdin, `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`+"\n", 100+i)
		}
	}()
	time.Sleep(500 * time.Millisecond)
	if err := s.Cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("server died while the client was not reading: %v", err)
	}
	// Now the client goes away without ever reading.
	s.Stdin.Close()
	s.CloseStdout()
	s.Wait(t, 15*time.Second)
	for _, e := range testutil.LabLog(t, logPath) {
		if e.Kind == lab.KindInvalid {
			t.Errorf("unexpected invalid entry: %+v", e)
		}
	}
}

// TestLogSurvivesKill: a server killed mid-stream leaves a log whose every
// complete line parses; at most the line being written is lost.
func TestLogSurvivesKill(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	s := testutil.StartStdio(t, serveCommand(t, "lab", "-log", logPath, "-instr", "ascii:5000"))
	go io.Copy(io.Discard, s.Stdout)
	io.WriteString(s.Stdin, initLine+"\n")
	for i := range 2000 {
		fmt.Fprintf(s.Stdin, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", 10+i)
	}
	// Kill it once it is logging the pings (the start entry, initialize
	// both ways, a ping), however slowly a loaded machine lets it start.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if data, _ := os.ReadFile(logPath); bytes.Count(data, []byte("\n")) >= 4 || time.Now().After(deadline) {
			break
		}
	}
	s.Cmd.Process.Kill()
	s.Wait(t, 10*time.Second)
	data, err := os.ReadFile(logPath)
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

// TestHTTPCrashOnUnknown: serve lab -http -on-unknown crash exits with
// status 1 when the server/discover probe of a legacy lab arrives.
func TestHTTPCrashOnUnknown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	s := testutil.StartStdio(t, serveCommand(t, "lab", "-http", addr, "-on-unknown", "crash"))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
	}
	probe := `{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(probe))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := (&http.Client{Timeout: 2 * time.Second}).Do(req); err == nil {
		resp.Body.Close()
	}
	var ee *exec.ExitError
	if err := s.Wait(t, 10*time.Second); !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("crash: exit %v, want exit status 1", err)
	}
}
