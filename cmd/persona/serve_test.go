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

// startServe runs "persona serve -http 127.0.0.1:0" with extra flags and
// returns its endpoint, and a function that cancels it and returns run's
// error.
func startServe(t *testing.T, flags ...string) (url string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "-http", "127.0.0.1:0"}, flags...), io.Discard, pw)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	serving := regexp.MustCompile(`serving (http://\S+/mcp)`)
	for url == "" && lines.Scan() {
		if m := serving.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("persona serve -http printed no address; run returned %v", <-done)
	}
	go io.Copy(io.Discard, pr)
	return url, func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("persona serve -http did not stop after cancel")
			return nil
		}
	}
}

// "persona serve -http" on a database that does not exist yet: the entry
// point creates the schema at startup, so the first connect already gets the
// default persona; cancelling the context shuts the server down cleanly.
func TestServeHTTPEntryPoint(t *testing.T) {
	db := filepath.Join(t.TempDir(), "new", "persona.db")
	url, stop := startServe(t, "-db", db)
	soft := builtIn(t, "supportive")
	for _, version := range []string{"", legacyVersion} {
		cs := connectHTTP(t, url, version)
		if got := cs.InitializeResult().Instructions; got != soft.Text {
			t.Errorf("version %q: instructions = %q, want %q", version, got, soft.Text)
		}
		cs.Close()
	}
	if err := stop(); err != nil {
		t.Errorf("run after cancel = %v, want nil", err)
	}
}

// -budget with -trim cuts a long persona at its first section boundary.
func TestServeBudgetTrims(t *testing.T) {
	db := filepath.Join(t.TempDir(), "persona.db")
	const text = "You are a patient coach.\n\n## Long background\nMore than a client keeps."
	for _, args := range [][]string{{"add", "-db", db, "patient", text}, {"set", "-db", db, "patient"}} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err != nil {
			t.Fatalf("persona %v: %v", args, err)
		}
	}
	url, stop := startServe(t, "-db", db, "-budget", "40", "-trim")
	defer stop()
	if got, want := connectHTTP(t, url, "").InitializeResult().Instructions, "You are a patient coach."; got != want {
		t.Errorf("instructions = %q, want %q", got, want)
	}
}
