package coach_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
)

func openStore(t *testing.T, initSchema bool) *coach.Store {
	t.Helper()
	st, err := coach.Open(filepath.Join(t.TempDir(), "persona.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if initSchema {
		if err := st.InitSchema(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestActiveWithoutSchemaFails(t *testing.T) {
	st := openStore(t, false)
	if p, err := st.Active(context.Background()); err == nil {
		t.Fatalf("Active on a fresh database = %+v, want an error", p)
	}
}

func TestSetActive(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, true)
	if err := st.Add(ctx, coach.Persona{Name: "calm", Text: "You are calm."}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		set     string // "" sets nothing
		wantErr error
		want    string // active persona after the step
	}{
		{"", nil, coach.DefaultName},
		{"hardass", nil, "hardass"},
		{"nobody", coach.ErrUnknown, "hardass"},
		{"calm", nil, "calm"},
		{"supportive", nil, "supportive"},
	}
	for _, tt := range tests {
		if tt.set != "" {
			if err := st.SetActive(ctx, tt.set); !errors.Is(err, tt.wantErr) {
				t.Errorf("SetActive(%q) = %v, want %v", tt.set, err, tt.wantErr)
			}
		}
		p, err := st.Active(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if p.Name != tt.want || p.Text == "" || p.Focus == "" {
			t.Errorf("after SetActive(%q): active = %+v, want %s with text and focus", tt.set, p, tt.want)
		}
	}
}

func TestAddAndList(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, true)
	for _, p := range []coach.Persona{
		{Name: "zen", Text: "Breathe.", Focus: "Walk."},
		{Name: "calm", Text: "old"},
		{Name: "calm", Text: "You are calm."}, // replaces
	} {
		if err := st.Add(ctx, p); err != nil {
			t.Fatalf("Add(%+v): %v", p, err)
		}
	}
	for _, bad := range []coach.Persona{
		{Name: "hardass", Text: "mine"},
		{Name: "Bad Name", Text: "x"},
		{Name: "empty"},
	} {
		if err := st.Add(ctx, bad); err == nil {
			t.Errorf("Add(%+v) succeeded, want an error", bad)
		}
	}
	list, err := st.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range list {
		got = append(got, p.Name+": "+p.Focus)
	}
	hard, _ := coach.BuiltIn("hardass")
	soft, _ := coach.BuiltIn("supportive")
	want := []string{"hardass: " + hard.Focus, "supportive: " + soft.Focus, "calm: " + coach.DefaultFocus, "zen: Walk."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("List mismatch (-want +got):\n%s", diff)
	}
}

// TestOpenPathNotURI: the path is a file name, whatever characters it holds;
// the driver would cut "team?.db" at the '?' and open "team".
func TestOpenPathNotURI(t *testing.T) {
	for _, name := range []string{"team?.db", "a b#c%20d.db", "x?mode=ro&_pragma=foo.db"} {
		dir := t.TempDir()
		st, err := coach.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := st.InitSchema(context.Background()); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		st.Close()
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, e.Name())
		}
		if diff := cmp.Diff([]string{name}, got); diff != "" {
			t.Errorf("files created for -db %q mismatch (-want +got):\n%s", name, diff)
		}
	}
}
