package testutil

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// A Backend is a local stand-in for a vendor's service or a model
// provider, for the tests that reproduce why a client cannot be driven: it
// answers every request 404 and keeps the method and path of each.
type Backend struct {
	URL   string
	mu    sync.Mutex
	calls []string
}

// StartBackend starts a Backend on 127.0.0.1, closed when the test ends.
func StartBackend(t testing.TB) *Backend {
	t.Helper()
	b := &Backend{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, io.LimitReader(r.Body, 1<<24))
		b.mu.Lock()
		b.calls = append(b.calls, r.Method+" "+r.URL.Path)
		b.mu.Unlock()
		http.Error(w, `{"error":"not here"}`, http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	b.URL = srv.URL
	return b
}

// Calls are the requests the backend has had so far, each as "METHOD
// /path".
func (b *Backend) Calls() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.calls...)
}

// RunBare runs a client's headless command as a fresh user would: HOME
// is home (a new temporary directory when empty), the work folder and
// TMPDIR are new ones, PATH is the system's alone and env comes on top.
// It returns the combined output and the command's error, and fails the
// test if the command does not end within 3 minutes.
func RunBare(t testing.TB, home string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	if home == "" {
		home = t.TempDir()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append([]string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + t.TempDir(), "LANG=C.UTF-8", "TERM=dumb"}, env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s did not end within 3 minutes:\n%s", name, out.String())
	}
	return out.String(), err
}
