package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
	"github.com/instrlab/instrlab/live"
)

// 200 concurrent HTTP connects while another process-like writer flips the
// persona through a sequence that never repeats. Every session's text must
// be exactly one persona that was current at some moment of its connect:
// the writer records which flip it has begun (started) and which it has
// committed (committed), so during a connect that read committed = a before
// it began and started = b after it ended, the database only ever held the
// personas of flips a..b.
func TestConcurrentConnectsWhilePersonaFlips(t *testing.T) {
	const (
		connects = 200
		personas = 400
	)
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "persona.db")
	st, err := coach.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.InitSchema(ctx); err != nil {
		t.Fatal(err)
	}
	texts := addPersonas(t, path, personas)
	name := func(k int) string { return fmt.Sprintf("p%03d", k) }

	// The writer is a second store on the same file, as "persona set" is.
	writer, err := coach.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if err := writer.SetActive(ctx, name(0)); err != nil {
		t.Fatal(err)
	}
	var started, committed atomic.Int64
	stop := make(chan struct{})
	flipped := make(chan error, 1)
	go func() {
		defer close(flipped)
		for k := 1; k < personas; k++ {
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
			started.Store(int64(k))
			if err := writer.SetActive(ctx, name(k)); err != nil {
				flipped <- err
				return
			}
			committed.Store(int64(k))
		}
	}()

	// A generous deadline: this test is about consistency, not fail-open.
	url := serveHTTP(t, st, &live.Options{Deadline: 30 * time.Second}, true)
	type result struct {
		got  string
		a, b int64
	}
	results := make([]result, connects)
	var wg sync.WaitGroup
	for i := range connects {
		wg.Go(func() {
			version := ""
			if i%2 == 1 {
				version = legacyVersion
			}
			a := committed.Load()
			cs := connectHTTP(t, url, version)
			b := started.Load()
			results[i] = result{cs.InitializeResult().Instructions, a, b}
		})
	}
	wg.Wait()
	close(stop)
	if err := <-flipped; err != nil {
		t.Fatalf("flipping the persona: %v", err)
	}

	seen := map[string]bool{}
	widest := int64(0)
	failedOpen := 0
	for i, r := range results {
		widest = max(widest, r.b-r.a)
		if r.got == "" {
			// Failed open: a read met the writer's lock past the busy
			// timeout (SQLITE_BUSY), which a machine under heavy load
			// makes possible at a flip a millisecond (CI of 2026-12-04:
			// 1 of 200). No instructions is the library's answer to an
			// unusable store, never a wrong persona; counted, and bounded
			// below.
			failedOpen++
			continue
		}
		ok := false
		for k := r.a; k <= r.b; k++ {
			ok = ok || r.got == texts[name(int(k))]
		}
		if !ok {
			t.Errorf("connect %d: instructions %q are none of the personas current during it (p%03d..p%03d)", i, r.got, r.a, r.b)
		}
		seen[r.got] = true
	}
	t.Logf("%d distinct personas seen; widest connect spanned %d flips; %d failed open", len(seen), widest, failedOpen)
	if failedOpen > connects/20 {
		t.Errorf("%d of %d connects failed open: the store's reads lose to its writes", failedOpen, connects)
	}
	if len(seen) < 2 {
		t.Errorf("all connects saw the same persona; the flips did not overlap the connects")
	}
}

// addPersonas inserts n user personas p000.. in one transaction, faster
// than n calls to Store.Add, and returns their texts by name.
func addPersonas(t *testing.T, path string, n int) map[string]string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{}
	for k := range n {
		name := fmt.Sprintf("p%03d", k)
		texts[name] = fmt.Sprintf("You are coach number %d.", k)
		if _, err := tx.Exec("INSERT INTO personas (name, text, focus) VALUES (?, ?, ?)", name, texts[name], "focus"); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return texts
}
