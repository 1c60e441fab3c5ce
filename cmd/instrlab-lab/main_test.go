package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/testutil"
)

// build builds instrlab-lab into a temporary directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "instrlab-lab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestBinary runs the built instrlab-lab as a client would: an initialize
// over stdio gets the lab's reply, instructions included, and its message
// log records it; a wrong flag exits 2 saying which flag.
func TestBinary(t *testing.T) {
	bin := build(t)
	t.Run("initialize", func(t *testing.T) {
		log := filepath.Join(t.TempDir(), "lab.jsonl")
		p := testutil.StartStdio(t, exec.Command(bin, "-instr", "ascii:300", "-log", log))
		line := p.Exchange(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		var reply struct {
			ID     int `json:"id"`
			Result struct {
				ServerInfo   struct{ Name string } `json:"serverInfo"`
				Instructions string                `json:"instructions"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &reply); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		if n := len([]rune(reply.Result.Instructions)); reply.ID != 1 || n != 300 || reply.Result.ServerInfo.Name == "" {
			t.Errorf("reply id %d, server %q, %d code points of instructions; want id 1, a name and 300 (-instr ascii:300): %s", reply.ID, reply.Result.ServerInfo.Name, n, line)
		}
		p.Stdin.Close()
		if err := p.Wait(t, 20*time.Second); err != nil {
			t.Errorf("exit at end of input: %v (stderr: %s)", err, p.Stderr.String())
		}
		logged, err := os.ReadFile(log)
		if err != nil || !strings.Contains(string(logged), `"initialize"`) {
			t.Errorf("message log %s: %v, %d bytes, no initialize in it", log, err, len(logged))
		}
	})
	t.Run("wrong flag", func(t *testing.T) {
		var stderr strings.Builder
		cmd := exec.Command(bin, "-eras", "future")
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "instrlab-lab: ") || !strings.Contains(stderr.String(), "future") {
			t.Errorf("-eras future: %v, stderr %q; want exit 2 and an error from instrlab-lab naming the value", err, stderr.String())
		}
		stderr.Reset()
		cmd = exec.Command(bin, "-bogus")
		cmd.Stderr = &stderr
		err = cmd.Run()
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "instrlab-lab: flag provided but not defined: -bogus") {
			t.Errorf("-bogus: %v, stderr %q; want exit 2 naming the flag", err, stderr.String())
		}
	})
}
