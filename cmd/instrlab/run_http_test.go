package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/lab"
)

// TestRunHTTPServer: run -server URL puts the recording proxy in front of a
// Streamable HTTP server; the cells equal those of the same text served
// over stdio behind the proxy, and the secret in the URL's query reaches
// no evidence.
func TestRunHTTPServer(t *testing.T) {
	cfg, err := lab.Args{Instr: "ascii:5000"}.Config()
	if err != nil {
		t.Fatal(err)
	}
	l, err := lab.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var gotSecret bool
	mux := http.NewServeMux()
	handler := l.Handler() // one handler: a handler made per request knows no session of another (404)
	mux.HandleFunc("/notes/mcp", func(w http.ResponseWriter, r *http.Request) {
		gotSecret = gotSecret || r.URL.Query().Get("token") == "hunter2secret"
		handler.ServeHTTP(w, r)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	common := []string{"-client", "fake@1", "-lab", binary, "-netns", "off"}
	httpOut, stdioOut := t.TempDir(), t.TempDir()
	var stderr bytes.Buffer
	if err := run(context.Background(), append(append([]string{"run", "-out", httpOut}, common...), "-server", srv.URL+"/notes/mcp?token=hunter2secret"), new(bytes.Buffer), &stderr); err != nil {
		t.Fatalf("run -server URL: %v\n%s", err, stderr.String())
	}
	if !gotSecret {
		t.Error("the server never got the URL's query through the proxy")
	}
	if err := run(context.Background(), append(append([]string{"run", "-out", stdioOut}, common...), "-server", "--", binary, "serve", "lab", "-instr", "ascii:5000"), new(bytes.Buffer), &stderr); err != nil {
		t.Fatalf("run -server -- CMD: %v\n%s", err, stderr.String())
	}
	cell := func(out string) []string {
		rs := readResults(t, out)
		if len(rs) != 1 || rs[0].First.Best() == nil {
			t.Fatalf("%s: %+v", out, rs)
		}
		r := rs[0]
		p := report.PlacementCell(&r)
		p = strings.Replace(strings.Replace(p, "## notes", "## lab", 1), "## instrlab", "## lab", 1)
		return []string{r.Status, r.Row, report.KeptCell(&r), p, strings.Join(r.Handshake.Methods, " ")}
	}
	h, s := cell(httpOut), cell(stdioOut)
	if h[1] != "notes" {
		t.Errorf("the HTTP server is filed as %q, want notes (its URL's path)", h[1])
	}
	h[1], s[1] = "", ""
	if diff := cmp.Diff(s, h); diff != "" {
		t.Errorf("the same text over HTTP and over stdio behind the proxy differs (-stdio +http):\n%s", diff)
	}
	filepath.Walk(httpOut, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if data, _ := os.ReadFile(path); bytes.Contains(data, []byte("hunter2secret")) {
				t.Errorf("%s holds the secret of the server's URL", path)
			}
		}
		return nil
	})
}

// TestRunHTTPServerUnreachable: a URL nothing answers at is a failed run
// that says the server could not be reached, without the URL.
func TestRunHTTPServerUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/mcp?token=hunter2secret"
	srv.Close() // nothing listens there now
	out := t.TempDir()
	err := run(context.Background(), []string{"run", "-client", "fake@1", "-lab", binary, "-netns", "off", "-out", out, "-server", url}, new(bytes.Buffer), new(bytes.Buffer))
	if err == nil {
		t.Fatal("run -server with an unreachable URL exited 0")
	}
	rs := readResults(t, out)
	if len(rs) != 1 || rs[0].Status != "failed" || !strings.Contains(rs[0].Reason, "reaching the upstream") || strings.Contains(rs[0].Reason, "hunter2secret") {
		t.Fatalf("results: %+v\nwant a failed run saying the upstream could not be reached, without the URL", rs)
	}
}
