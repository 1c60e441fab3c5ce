package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/atlas"
)

// TestFill gives a copy of the committed atlas the dates a registry
// lists, keeps only those of the versions each timeline selected, and
// writes atlas.md with them; a registry that cannot answer changes no file.
func TestFill(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../../../atlas/atlas.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "atlas.json"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	down := func(context.Context, string) (map[string]string, error) {
		return nil, errors.New("npm cannot reach its registry")
	}
	if err := fill(t.Context(), dir, down); err == nil || !strings.Contains(err.Error(), "cannot reach") {
		t.Errorf("fill with the registry down: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "atlas.json")); !bytes.Equal(b, src) {
		t.Error("a failed fill rewrote atlas.json")
	}
	if _, err := os.Stat(filepath.Join(dir, "atlas.md")); err == nil {
		t.Error("a failed fill wrote atlas.md")
	}

	dates := func(_ context.Context, client string) (map[string]string, error) {
		if client == "kilo" {
			return map[string]string{"7.7.2": "2001-02-03", "99.0.0": "2001-01-01"}, nil
		}
		return map[string]string{}, nil
	}
	if err := fill(t.Context(), dir, dates); err != nil {
		t.Fatal(err)
	}
	a, err := atlas.Read(t.Context(), filepath.Join(dir, "atlas.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range a.Timelines {
		want := 0
		if tl.Client == "kilo" {
			want = 1
		}
		if len(tl.Released) != want || want == 1 && tl.Released["7.7.2"] != "2001-02-03" {
			t.Errorf("%s's dates: %v", tl.Client, tl.Released)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "atlas.md"))
	if err != nil || !strings.Contains(string(md), "| **7.7.2** | 2001-02-03 |") {
		t.Errorf("atlas.md does not date kilo's change point (%v)", err)
	}
}
