package main

import (
	"bufio"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// "persona serve -http" on a database that does not exist yet: the entry
// point creates the schema at startup, so the first connect already gets the
// default persona; cancelling the context shuts the server down cleanly.
func TestServeHTTPEntryPoint(t *testing.T) {
	db := filepath.Join(t.TempDir(), "new", "persona.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-db", db, "-http", "127.0.0.1:0"}, io.Discard, pw)
		pw.Close()
	}()

	lines := bufio.NewScanner(pr)
	serving := regexp.MustCompile(`serving (http://\S+/mcp)`)
	var url string
	for url == "" && lines.Scan() {
		if m := serving.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("persona serve -http printed no address; run returned %v", <-done)
	}
	go io.Copy(io.Discard, pr)

	soft := builtIn(t, "supportive")
	for _, version := range []string{"", legacyVersion} {
		cs := connectHTTP(t, url, version)
		if got := cs.InitializeResult().Instructions; got != soft.Text {
			t.Errorf("version %q: instructions = %q, want %q", version, got, soft.Text)
		}
		cs.Close()
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run after cancel = %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("persona serve -http did not stop after cancel")
	}
}
