package main

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/instrlab/instrlab/live"
)

// A writer in another connection holds an exclusive lock: a connect does not
// wait for it past the deadline, goes ahead without instructions and
// reports the deadline; once the lock is gone the persona is back.
func TestLockedDatabaseFailsOpen(t *testing.T) {
	const (
		deadline = 200 * time.Millisecond
		margin   = 500 * time.Millisecond // scheduling under load and -race; the busy timeout is 2s
	)
	ctx := context.Background()
	st := testStore(t, true)
	var rep reports
	s := newServer(st, &live.Options{Deadline: deadline, Report: rep.report})
	soft := builtIn(t, "supportive")
	if got := connectMemory(t, s, "").InitializeResult().Instructions; got != soft.Text {
		t.Fatalf("before the lock: instructions = %q, want %q", got, soft.Text)
	}

	db, err := sql.Open("sqlite", st.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lock, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{"", legacyVersion} {
		start := time.Now()
		cs := connectMemory(t, s, version)
		elapsed := time.Since(start)
		if got := cs.InitializeResult().Instructions; got != "" {
			t.Errorf("version %q, locked: instructions = %q, want none", version, got)
		}
		if elapsed > deadline+margin {
			t.Errorf("version %q, locked: connect took %v, want at most %v", version, elapsed, deadline+margin)
		}
	}
	errs := rep.all()
	if len(errs) != 2 || !errors.Is(errs[0], live.ErrDeadline) || !errors.Is(errs[1], live.ErrDeadline) {
		t.Errorf("reported %v, want two deadline errors", errs)
	}

	if _, err := lock.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if got := connectMemory(t, s, "").InitializeResult().Instructions; got != soft.Text {
		t.Errorf("after the lock: instructions = %q, want %q", got, soft.Text)
	}
}
