package serve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/lab"
)

const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		":0": true, "127.0.0.1:8080": true, "127.9.9.9:1": true, "localhost:0": true, "[::1]:0": true,
		"0.0.0.0:0": false, "[::]:0": false, "192.168.1.2:80": false, "example.com:80": false, "nocolon": false,
	} {
		if got := loopbackAddr(addr); got != want {
			t.Errorf("loopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestLabNames: the lab's command line run as instrlab-lab names that
// program in its usage and leaves "serve lab:" off its errors; run as
// instrlab serve lab it keeps both as they were.
func TestLabNames(t *testing.T) {
	for _, tt := range []struct {
		name      string
		run       func(args []string, stderr io.Writer) error
		usage     string
		errPrefix string
	}{
		{"instrlab-lab", func(args []string, stderr io.Writer) error {
			return Lab(context.Background(), args, strings.NewReader(""), io.Discard, stderr)
		}, "Usage: instrlab-lab [flags]", ""},
		{"serve lab", func(args []string, stderr io.Writer) error {
			return Main(context.Background(), append([]string{"lab"}, args...), strings.NewReader(""), io.Discard, stderr)
		}, "Usage: instrlab serve lab [flags]", "serve lab: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			if err := tt.run([]string{"-h"}, &stderr); !errors.Is(err, cli.ErrHelp) || !strings.HasPrefix(stderr.String(), tt.usage) || !strings.Contains(stderr.String(), "-instr") {
				t.Errorf("-h: %v, usage %q; want ErrHelp and a usage beginning %q that lists -instr", err, stderr.String(), tt.usage)
			}
			err := tt.run([]string{"extra"}, io.Discard)
			if want := tt.errPrefix + `unexpected argument "extra"`; err == nil || err.Error() != want || cli.ExitCode("p", err, io.Discard) != cli.ExitUsage {
				t.Errorf("an argument: %v; want the usage error %q", err, want)
			}
		})
	}
}

// TestServeLabLogOnFullDisk: a log that cannot be written stops serve lab
// with a clear error, over stdio and over HTTP, rather than serving on
// without a record.
func TestServeLabLogOnFullDisk(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full here")
	}
	t.Run("stdio", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		err := Main(context.Background(), []string{"lab", "-log", "/dev/full"}, strings.NewReader(initLine+"\n"), &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), "writing message log") || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("serve lab -log /dev/full = %v, want a message log error naming the full disk", err)
		}
	})
	t.Run("http", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := ln.Addr().String()
		ln.Close()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			done <- Main(ctx, []string{"lab", "-http", addr, "-log", "/dev/full"}, strings.NewReader(""), io.Discard, io.Discard)
		}()
		client := &http.Client{Timeout: 2 * time.Second}
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			req, _ := http.NewRequest("POST", "http://"+addr+"/mcp", strings.NewReader(initLine))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if resp, err := client.Do(req); err == nil {
				resp.Body.Close()
				break
			}
		}
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "writing message log") || cli.ExitCode("p", err, io.Discard) != cli.ExitFailure {
				t.Errorf("serve lab -http -log /dev/full = %v; want a failure naming the message log", err)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("server still serving after its log failed")
		}
	})
}

// TestServeLabStdioGC: serve lab over stdio runs with its own garbage
// collection target and memory limit, unless GOGC or GOMEMLIMIT are set, and
// leaves the process's settings as it found them.
func TestServeLabStdioGC(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: serve lab keeps them")
	}
	gcPercent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	before, beforeLimit := gcPercent(), debug.SetMemoryLimit(-1)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Main(context.Background(), []string{"lab"}, inR, outW, io.Discard); outW.Close() }()
	io.WriteString(inW, initLine+"\n")
	if _, err := bufio.NewReader(outR).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	if got, limit := gcPercent(), debug.SetMemoryLimit(-1); got != stdioGCPercent || limit != stdioMemoryLimit {
		t.Errorf("while serving: GC percent %d, memory limit %d; want %d and %d", got, limit, stdioGCPercent, stdioMemoryLimit)
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got, limit := gcPercent(), debug.SetMemoryLimit(-1); got != before || limit != beforeLimit {
		t.Errorf("after serving: GC percent %d, memory limit %d; want %d and %d as before", got, limit, before, beforeLimit)
	}
}

// TestServeLabPrint: -print prints both texts of a dual lab, with their
// codewords and lengths.
func TestServeLabPrint(t *testing.T) {
	var stdout bytes.Buffer
	if err := Main(context.Background(), []string{"lab", "-instr", "ascii:5000", "-eras", "legacy,modern", "-print"}, strings.NewReader(""), &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	in, err := lab.ParseInstructions("ascii:5000")
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.New(lab.Config{Instructions: in, Eras: lab.ModeBoth})
	if err != nil {
		t.Fatal(err)
	}
	initText, discoverText := l.Texts()
	out := stdout.String()
	for _, want := range []string{initText.Text, discoverText.Text, initText.Begin, discoverText.End, "5000 characters"} {
		if !strings.Contains(out, want) {
			t.Errorf("-print output lacks %.60q", want)
		}
	}
}

// TestServeLabOldEra: the lab's flag before the glossary, -era, and its
// value dual still serve both eras, each saying what replaced it, in
// instrlab serve lab as in instrlab-lab; "modern,legacy" is the same set.
func TestServeLabOldEra(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		lines []string
	}{
		{[]string{"lab", "-era", "dual", "-print"}, []string{"instrlab serve lab: -era is deprecated and goes in the next minor version: use -eras", "instrlab serve lab: -eras dual is deprecated", "use -eras legacy,modern"}},
		{[]string{"lab", "-eras", "dual", "-print"}, []string{"instrlab serve lab: -eras dual is deprecated"}},
		{[]string{"lab", "-eras", "modern,legacy", "-print"}, nil},
	} {
		var stdout, stderr bytes.Buffer
		if err := Main(context.Background(), tc.args, strings.NewReader(""), &stdout, &stderr); err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if !strings.Contains(stdout.String(), "eras legacy,modern") || !strings.Contains(stdout.String(), "# server/discover") {
			t.Errorf("%q printed %q, want both eras' texts", tc.args, stdout.String())
		}
		for _, want := range tc.lines {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("%q: stderr %q lacks %q", tc.args, stderr.String(), want)
			}
		}
		if tc.lines == nil && stderr.Len() > 0 {
			t.Errorf("%q: stderr %q, want nothing", tc.args, stderr.String())
		}
	}
	var stderr bytes.Buffer
	if err := Lab(context.Background(), []string{"-era", "modern", "-print"}, strings.NewReader(""), io.Discard, &stderr); err != nil || !strings.Contains(stderr.String(), "instrlab-lab: -era is deprecated") {
		t.Errorf("instrlab-lab -era modern: %v, stderr %q", err, stderr.String())
	}
}
