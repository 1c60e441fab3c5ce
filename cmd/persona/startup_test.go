package main

import (
	"bufio"
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
)

// startServeStderr is startServe that also returns what the server printed
// on stderr, as it goes.
func startServeStderr(t *testing.T, flags ...string) (url string, stderr func() string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "-http", "127.0.0.1:0"}, flags...), io.Discard, pw)
		pw.Close()
	}()
	t.Cleanup(func() { cancel(); <-done })
	var mu sync.Mutex
	var text strings.Builder
	lines := bufio.NewScanner(pr)
	serving := regexp.MustCompile(`serving (http://\S+/mcp)`)
	for url == "" && lines.Scan() {
		text.WriteString(lines.Text() + "\n")
		if m := serving.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("persona serve -http printed no address (%q); run returned %v", text.String(), <-done)
	}
	go func() {
		for lines.Scan() {
			mu.Lock()
			text.WriteString(lines.Text() + "\n")
			mu.Unlock()
		}
	}()
	return url, func() string {
		mu.Lock()
		defer mu.Unlock()
		return text.String()
	}
}

// TestServeFailsOpenAtStartup: whatever state the database is in when the
// server starts, it serves a handshake (without instructions where the
// database cannot be read) and says so on stderr.
func TestServeFailsOpenAtStartup(t *testing.T) {
	validDB := func(t *testing.T, path string) {
		st, err := coach.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.InitSchema(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := st.SetActive(context.Background(), "hardass"); err != nil {
			t.Fatal(err)
		}
	}
	hard := builtIn(t, "hardass")
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, path string) (release func())
		broken bool
	}{
		{"missing", func(t *testing.T, path string) func() { return nil }, false},
		{"directory", func(t *testing.T, path string) func() {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
			return nil
		}, true},
		{"corrupt", func(t *testing.T, path string) func() {
			if err := os.WriteFile(path, []byte(strings.Repeat("not a database. ", 512)), 0o644); err != nil {
				t.Fatal(err)
			}
			return nil
		}, true},
		{"truncated", func(t *testing.T, path string) func() {
			validDB(t, path)
			if err := os.Truncate(path, 50); err != nil { // half the header
				t.Fatal(err)
			}
			return nil
		}, true},
		{"locked", func(t *testing.T, path string) func() {
			validDB(t, path)
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			lock, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := lock.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
				t.Fatal(err)
			}
			return func() {
				lock.ExecContext(context.Background(), "ROLLBACK")
				lock.Close()
				db.Close()
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "persona.db")
			release := tc.setup(t, path)
			url, stderr := startServeStderr(t, "-db", path, "-deadline", "300ms")
			got := connectHTTP(t, url, "").InitializeResult().Instructions
			warned := strings.Contains(stderr(), "database unusable at startup")
			if tc.broken {
				if got != "" {
					t.Errorf("instructions %.40q from an unusable database, want none", got)
				}
				if !warned {
					t.Errorf("stderr %q does not say the database is unusable", stderr())
				}
			} else if got == "" || warned {
				t.Errorf("instructions %.40q, warned %v; want the default persona and no warning", got, warned)
			}
			if release != nil {
				// Once the lock is gone, the next connect gets the persona.
				release()
				if got := connectHTTP(t, url, "").InitializeResult().Instructions; got != hard.Text {
					t.Errorf("after the lock is released: instructions %.40q, want the active persona's", got)
				}
			}
		})
	}
}
