package budget

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestProfileDirectory: -profile naming a directory writes each client's
// measurements into its CLIENT@VERSION.json there; a client's failed
// measurement is left out and named (its text escaped), its others
// written; a directory without a client's profile is refused up front.
func TestProfileDirectory(t *testing.T) {
	dir := t.TempDir()
	specs := []string{"codex@0.171.0", "continue@1.5.47"}
	var cs []client.Client
	for _, s := range specs {
		data, err := os.ReadFile(filepath.Join("../profiles/data", s+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, s+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := clients.New(s)
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	c := Command{Clients: cs, Budgets: []string{Wait, NameLength}, Format: "text", Profile: dir, Line: "instrlab budget -client all"}
	if err := c.check(t.Context()); err != nil {
		t.Fatalf("check: %v", err)
	}
	per := [][]Measurement{
		{{Client: specs[0], Budget: NameLength, Unit: "characters", Runs: 2, Failed: "cannot tell: \x1b[31mno name\nsecond line"},
			{Client: specs[0], Budget: Defer, Unit: "tools", Within: 0, Past: 3, Below: true, Runs: 2, PastBudget: "defers 3 (3 server namespace)"}},
		{{Client: specs[1], Budget: Wait, Unit: "s", Within: 57.1, Past: 60, Runs: 3, PastBudget: PastExits, MaxLoad: 0.4}},
	}
	var stderr strings.Builder
	if err := c.writeProfiles(t.Context(), per, &stderr); err != nil {
		t.Fatal(err)
	}
	if got := stderr.String(); !strings.Contains(got, "codex@0.171.0 name budget not written into its profile: cannot tell") ||
		strings.Contains(got, "\x1b") || strings.Contains(got, "second line") {
		t.Errorf("stderr %q: want the failed budget named, on one escaped line", got)
	}
	for spec, want := range map[string][]string{specs[0]: {Defer}, specs[1]: {Wait}} {
		p, err := profiles.ReadFile(t.Context(), filepath.Join(dir, spec+".json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{Wait, Defer, NameLength} {
			var b *float64
			for _, got := range p.Budgets {
				if got.Name == name && got.Command == c.Line {
					b = &got.Past
				}
			}
			if wanted := contains(want, name); wanted != (b != nil) {
				t.Errorf("%s: %s budget written %v, want %v", spec, name, b != nil, wanted)
			}
		}
	}
	os.Remove(filepath.Join(dir, specs[1]+".json"))
	if err := c.check(t.Context()); err == nil || !strings.Contains(err.Error(), "continue@1.5.47") {
		t.Errorf("a directory without continue's profile: %v", err)
	}
}

// TestUpdateProfileKeepsSecondLimit: a result budget measured again
// replaces the profile's, with what the runs counted, but keeps the
// second limit measured apart past it (Claude Code 2.1.332's, bisected
// with run), which budget does not measure.
func TestUpdateProfileKeepsSecondLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claude-code@2.1.332.json")
	data, err := os.ReadFile("../profiles/data/claude-code@2.1.332.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m := Measurement{Client: "claude-code@2.1.332", Budget: ResultSize, Unit: "characters", Within: 50000, Past: 50001, Runs: 30,
		PastBudget: "cuts it", Late: "not measured", Counts: "utf16", CountsNote: "ASCII whole at 50,000 characters; astral text …"}
	if err := UpdateProfile(t.Context(), path, []Measurement{m}, "2026-12-05", "instrlab budget -budget result"); err != nil {
		t.Fatal(err)
	}
	p, err := profiles.ReadFile(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range p.Budgets {
		if b.Name != ResultSize {
			continue
		}
		if b.Runs != 30 || b.Counts != "utf16" || b.Second == nil || b.Second.Within != 101000 {
			t.Errorf("result budget %+v (second %+v): want the new runs, what they counted, and the second limit kept", b, b.Second)
		}
		return
	}
	t.Error("no result budget")
}
