package probe

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/instrlab/instrlab/lab"
)

// TestMain lets the test binary serve as the server under test: with
// PROBE_TEST_SERVER set it is a lab server (or a broken one) on stdio.
func TestMain(m *testing.M) {
	if args := os.Getenv("PROBE_TEST_SERVER"); args != "" {
		os.Exit(serveForTest(strings.Fields(args)))
	}
	os.Exit(m.Run())
}

func serveForTest(args []string) int {
	switch args[0] {
	case "exit":
		fmt.Fprintln(os.Stderr, "fatal: no config file")
		return 3
	case "exit-verbose":
		fmt.Fprintln(os.Stderr, "error: cannot open database: permission denied")
		for i := range 10 {
			fmt.Fprintf(os.Stderr, "  at frame %d\n", i)
		}
		fmt.Fprintln(os.Stderr, "usage: server [--db PATH]")
		return 1
	case "silent":
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "huge", "deep":
		// Answers every request with a valid reply too long (a string
		// of 17 MiB) or too deep (arrays 12,000 levels down) to read.
		value := `"` + strings.Repeat("x", 17<<20) + `"`
		if args[0] == "deep" {
			value = strings.Repeat("[", 12000) + strings.Repeat("]", 12000)
		}
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			var req struct{ ID json.RawMessage }
			if json.Unmarshal(sc.Bytes(), &req) == nil && req.ID != nil {
				fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"x":%s}}`+"\n", req.ID, value)
			}
		}
		return 0
	case "tools-error":
		return toolsErrorServer()
	case "eof-daemon":
		// Starts a daemon in a session of its own, writes its pid to the
		// file args[1], and exits at the end of its input.
		d := exec.Command("setsid", "sleep", "300")
		if err := d.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		os.WriteFile(args[1], []byte(strconv.Itoa(d.Process.Pid)), 0o644)
		io.Copy(io.Discard, os.Stdin)
		return 0
	case "deaf":
		// Ignores SIGTERM and the end of its input.
		signal.Ignore(syscall.SIGTERM)
		fmt.Println("{}")
		for { // a sleep, not select{}: without cgo the runtime ends a
			// program whose goroutines all block for good (exit 2)
			time.Sleep(time.Hour)
		}
	case "garbage":
		fmt.Println("Server listening on stdio, version 1.2.3")
		args = args[1:]
	case "count":
		// Notes itself in the directory args[1] while it runs, and how
		// many of its kind it saw there as it started (countAlive).
		dir := args[1]
		live := filepath.Join(dir, "live-"+strconv.Itoa(os.Getpid()))
		os.WriteFile(live, nil, 0o644)
		defer os.Remove(live)
		m, _ := filepath.Glob(filepath.Join(dir, "live-*"))
		os.WriteFile(filepath.Join(dir, "seen-"+strconv.Itoa(os.Getpid())), []byte(strconv.Itoa(len(m))), 0o644)
		args = args[2:]
	}
	fs := flag.NewFlagSet("lab", flag.ExitOnError)
	instr := fs.String("instr", "ascii:1000", "")
	eras := fs.String("eras", string(lab.ModeLegacy), "")
	initDelay := fs.Duration("init-delay", 0, "")
	discoverDelay := fs.Duration("discover-delay", 0, "")
	onUnknown := fs.String("on-unknown", lab.UnknownError, "")
	toolOrder := fs.String("tool-order", lab.OrderName, "")
	surface := fs.String("surface", "", "")
	resultSize := fs.String("result-size", lab.DefaultResultSize, "")
	fs.Parse(args)
	in, err := lab.ParseInstructions(*instr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	groups, err := lab.ParseSurface(*surface)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	size, err := lab.ParseInstructions(*resultSize)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	l, err := lab.New(lab.Config{Instructions: in, Eras: lab.Mode(*eras), InitDelay: *initDelay,
		DiscoverDelay: *discoverDelay, OnUnknown: *onUnknown, ToolOrder: *toolOrder,
		Surface: lab.SurfaceConfig{Groups: groups, ResultSize: size}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if err := l.ServeStdio(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// testServer is a stdio target that runs this test binary as a server.
func testServer(t *testing.T, args string) Target {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Target{Name: "lab", Transport: TransportStdio, Command: exe,
		Env: map[string]string{"PROBE_TEST_SERVER": args}}
}

// quick are options for tests: timeouts long enough for a loaded machine,
// short enough for the tests that wait them out.
var quick = Options{Timeout: 3 * time.Second}

// toolsErrorServer answers initialize and server/discover with a result
// that declares tools, and tools/list with an internal error.
func toolsErrorServer() int {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		switch m.Method {
		case "initialize":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"broken","version":"1"}}}`+"\n", m.ID)
		case "tools/list":
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"database is locked"}}`+"\n", m.ID)
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", m.ID)
		}
	}
	return 0
}
