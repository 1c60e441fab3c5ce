package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/client/claudecode"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/lab"
)

// TestE2EUserHTTPServer runs server-everything (pinned in checkNPM) as a
// Streamable HTTP server and Claude Code against it with run -server URL:
// the client connects to the recording proxy over HTTP, the texts come
// from the proxy's log, and the token in the URL reaches no evidence.
func TestE2EUserHTTPServer(t *testing.T) {
	dir := npmDir(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, port, _ := net.SplitHostPort(addr)
	srv := exec.Command(nodeBin(dir), npmServer(dir, "server-everything"), "streamableHttp")
	srv.Env = append(os.Environ(), "PORT="+port)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("server-everything did not listen within 60 s")
		}
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-client", claudecode.Name + "@" + claudecode.DefaultVersion, "-lab", binary, "-timeout", "120s", "-out", out,
		"-server", "http://" + addr + "/mcp?token=hunter2secret"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	t.Logf("table:\n%s", stdout.String())
	_, results, _, err := report.Load(t.Context(), clients.New, out)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Status != "ok" {
		t.Fatalf("results: %+v", results)
	}
	r := results[0]
	text := r.ServerTexts.Instructions[lab.ReplyInitialize]
	if text == "" || len(r.Tools) == 0 {
		t.Fatalf("the proxy's log holds no instructions or tools of server-everything: %+v", r.ServerTexts)
	}
	if b := r.First.Best(); b == nil || b.Kept == 0 {
		t.Errorf("the instructions of the HTTP server were not found in the first request")
	}
	for _, tf := range r.Tools {
		if tf.Via == "" {
			t.Errorf("tool %s located nowhere in the first request", tf.Name)
		}
	}
	filepath.Walk(out, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if data, _ := os.ReadFile(path); bytes.Contains(data, []byte("hunter2secret")) {
				t.Errorf("%s holds the secret of the server's URL", path)
			}
		}
		return nil
	})
	if strings.Contains(stdout.String(), "hunter2secret") || strings.Contains(stderr.String(), "hunter2secret") {
		t.Error("run's output holds the secret of the server's URL")
	}
}
