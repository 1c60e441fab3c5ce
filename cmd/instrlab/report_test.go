package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/profiles/derive"
)

// TestReportProfileOut: report -profile-out writes one profile per client
// version in the evidence, in the format check reads.
func TestReportProfileOut(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"report", "-profile-out", dir, "-profile-ref", "evidence/summary.md", "-profile-command", "instrlab run -out DIR", "../../internal/matrix/analyze/testdata/runs"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, id := range []string{"claude-code@2.1.285", "claude-code@2.1.328"} {
		p, err := profiles.ReadFile(t.Context(), filepath.Join(dir, id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if p.ID() != id || p.Evidence[0].Ref != "evidence/summary.md" {
			t.Errorf("%s: got %s with evidence %+v", id, p.ID(), p.Evidence)
		}
		// The excerpt beside it derives the same profile again.
		x, err := derive.ReadExcerpt(t.Context(), filepath.Join(dir, "evidence", id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if x.Command != "instrlab run -out DIR" {
			t.Errorf("%s: excerpt command %q", id, x.Command)
		}
		again, err := derive.Profiles(x.Results, derive.Options{Ref: "evidence/summary.md", Evidence: x, Display: clients.Display})
		if err != nil || len(again) != 1 {
			t.Fatalf("%s from its excerpt: %d profiles, %v", id, len(again), err)
		}
		if diff := cmp.Diff(p, again[0]); diff != "" {
			t.Errorf("%s from its excerpt mismatch (-written +again):\n%s", id, diff)
		}
	}
	for _, flag := range []string{"-profile-ref", "-profile-command"} {
		err := run(context.Background(), []string{"report", flag, "x", "../../internal/matrix/analyze/testdata/runs"}, &stdout, &stderr)
		if !errors.As(err, new(usageError)) {
			t.Errorf("%s without -profile-out: %v, want a usage error", flag, err)
		}
	}
}

// TestReportSweepHTML: report -format html on a sweep directory prints the
// atlas's page; a table format a sweep has not is a usage error.
func TestReportSweepHTML(t *testing.T) {
	dir := t.TempDir()
	a := &atlas.Atlas{Date: "2026-12-01", Matrix: "atlas", Properties: []string{"uses"}, Timelines: []atlas.Timeline{
		atlas.NewTimeline("fake", "all", []string{"1.0.0", "1.0.1"}, []atlas.Point{
			{Version: "1.0.0", Attempt: 1, Props: atlas.Props{{Name: "uses", Value: "no"}}},
			{Version: "1.0.1", Attempt: 1, Props: atlas.Props{{Name: "uses", Value: "yes"}}},
		})}}
	f, err := os.Create(evidence.SweepDir(dir).Atlas())
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(a.JSON(f), f.Close()); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"report", "-format", "html", dir}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, want := range []string{`<svg role="img" aria-label="Timeline of fake"`, `class="changelabel middle">1.0.1</text>`} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	err = run(context.Background(), []string{"report", "-format", "csv", dir}, &stdout, &stderr)
	if !errors.As(err, new(usageError)) {
		t.Errorf("-format csv on a sweep: %v, want a usage error", err)
	}
}

// TestReportSite: report -format site -out DIR on the committed atlas
// writes the site with evidence linked from DIR back to the atlas; either
// flag without the other is a usage error, before anything is written.
func TestReportSite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	var stdout, stderr bytes.Buffer
	for _, args := range [][]string{{"-format", "site"}, {"-out", out}, {"-format", "html", "-out", out}} {
		err := run(context.Background(), append(append([]string{"report"}, args...), "../../atlas"), &stdout, &stderr)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), "-format site and -out go together") {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("written after a usage error: %v", err)
	}
	if err := run(context.Background(), []string{"report", "-format", "site", "-out", out, "../../atlas"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("../../atlas")
	rel, _ := filepath.Rel(out, abs)
	if link := `<a href="` + filepath.ToSlash(rel) + `/claude-code@`; !strings.Contains(string(b), link) {
		t.Errorf("index.html lacks a link to the evidence from %s: %s", out, link)
	}
	if _, err := os.Stat(filepath.Join(out, "reference", "clients", "claude-code.html")); err != nil {
		t.Errorf("the site has no client reference: %v", err)
	}
}
