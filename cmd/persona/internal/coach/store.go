package coach

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the pure-Go driver "sqlite", no cgo
)

// ErrUnknown is returned for a persona name that is neither built in nor in
// the database.
var ErrUnknown = errors.New("unknown persona")

// Store is the settings database: a key/value settings table and the
// user-defined personas.
type Store struct {
	db   *sql.DB
	path string
}

// busyTimeout is how long a statement waits for another process's lock
// before failing with SQLITE_BUSY. Writes here are single rows, so a wait
// this long means something holds the database; the server's live deadline
// bounds what a connect waits regardless.
const busyTimeout = "2000"

// Open returns the store in the SQLite file at path. It does no I/O: the
// file is opened, and created if missing, by the first statement. path is a
// file name, never a URI: "team?.db" is the file of that name.
func Open(path string) (*Store, error) {
	name, err := fileURI(path)
	if err != nil {
		return nil, fmt.Errorf("opening store %s: %w", path, err)
	}
	db, err := sql.Open("sqlite", name+"?_pragma=busy_timeout("+busyTimeout+")&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("opening store %s: %w", path, err)
	}
	db.SetMaxOpenConns(8)
	return &Store{db: db, path: path}, nil
}

// fileURI names the file at path as an SQLite URI, every byte of the path
// escaped: a plain name would be cut at its first '?' by the driver, and
// SQLite reads "file:" names as URIs.
func fileURI(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") { // a Windows volume: file:///C:/...
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// InitSchema creates the tables if they are missing. Every entry point calls
// it at startup; nothing calls it at import or when a server is built.
func (s *Store) InitSchema(ctx context.Context) error {
	const schema = `
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS personas (name TEXT PRIMARY KEY, text TEXT NOT NULL, focus TEXT NOT NULL);`
	if _, err := s.db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("creating schema in %s: %w", s.path, err)
	}
	return nil
}

// execer is a *sql.DB or a *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// setSetting sets key to value, inserting or replacing the row (an upsert).
func setSetting(ctx context.Context, q execer, key, value string) error {
	_, err := q.ExecContext(ctx,
		"INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
		key, value)
	if err != nil {
		return fmt.Errorf("writing setting %s: %w", key, err)
	}
	return nil
}
