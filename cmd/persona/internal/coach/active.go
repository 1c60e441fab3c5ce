package coach

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
)

// activeKey is the settings key that names the active persona.
const activeKey = "persona"

// Active returns the active persona. It reads the setting and a user
// persona's text in one statement, so a concurrent change yields the old
// persona or the new one, never a mix. It fails if the schema is missing.
func (s *Store) Active(ctx context.Context) (Persona, error) {
	var name string
	var text, focus sql.NullString
	err := s.db.QueryRowContext(ctx, `
SELECT s.value, p.text, p.focus FROM settings s LEFT JOIN personas p ON p.name = s.value
WHERE s.key = ?`, activeKey).Scan(&name, &text, &focus)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		name = DefaultName
	case err != nil:
		return Persona{}, fmt.Errorf("reading active persona: %w", err)
	}
	if p, ok := BuiltIn(name); ok {
		return p, nil
	}
	if !text.Valid {
		return Persona{}, fmt.Errorf("reading active persona: %w %q", ErrUnknown, name)
	}
	return Persona{Name: name, Text: text.String, Focus: focus.String}, nil
}

// SetActive makes name the active persona. The name must exist; the check
// and the write are one transaction.
func (s *Store) SetActive(ctx context.Context, name string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("setting persona %s: %w", name, err)
	}
	defer tx.Rollback()
	if _, ok := BuiltIn(name); !ok {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM personas WHERE name = ?", name).Scan(&n); err != nil {
			return fmt.Errorf("setting persona %s: %w", name, err)
		}
		if n == 0 {
			return fmt.Errorf("setting persona: %w %q (see persona list)", ErrUnknown, name)
		}
	}
	if err := setSetting(ctx, tx, activeKey, name); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("setting persona %s: %w", name, err)
	}
	return nil
}

// validName is what a user-defined persona may be called.
var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// Add adds a user-defined persona, or replaces the one of that name. Built-in
// names are reserved. An empty focus means [DefaultFocus].
func (s *Store) Add(ctx context.Context, p Persona) error {
	switch _, builtIn := BuiltIn(p.Name); {
	case !validName.MatchString(p.Name):
		return fmt.Errorf("adding persona %q: a name is 1-40 of a-z, 0-9, _ and -, starting with a letter or digit", p.Name)
	case builtIn:
		return fmt.Errorf("adding persona %q: the name is built in", p.Name)
	case p.Text == "":
		return fmt.Errorf("adding persona %q: the text is empty", p.Name)
	}
	if p.Focus == "" {
		p.Focus = DefaultFocus
	}
	_, err := s.db.ExecContext(ctx,
		"INSERT INTO personas (name, text, focus) VALUES (?, ?, ?) ON CONFLICT(name) DO UPDATE SET text = excluded.text, focus = excluded.focus",
		p.Name, p.Text, p.Focus)
	if err != nil {
		return fmt.Errorf("adding persona %s: %w", p.Name, err)
	}
	return nil
}

// List returns the built-in personas, then the user-defined ones by name.
func (s *Store) List(ctx context.Context) ([]Persona, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT name, text, focus FROM personas ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("listing personas: %w", err)
	}
	defer rows.Close()
	list := slices.Clone(builtIns)
	for rows.Next() {
		var p Persona
		if err := rows.Scan(&p.Name, &p.Text, &p.Focus); err != nil {
			return nil, fmt.Errorf("listing personas: %w", err)
		}
		list = append(list, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("listing personas: %w", err)
	}
	return list, nil
}
