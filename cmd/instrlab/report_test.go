package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/profiles"
)

// TestReportProfileOut: report -profile-out writes one profile per client
// version in the evidence, in the format check reads.
func TestReportProfileOut(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"report", "-profile-out", dir, "-profile-ref", "evidence/summary.md", "../../internal/matrix/testdata/runs"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	for _, id := range []string{"claude-code@2.1.285", "claude-code@2.1.328"} {
		p, err := profiles.ReadFile(filepath.Join(dir, id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if p.ID() != id || p.Evidence[0].Ref != "evidence/summary.md" {
			t.Errorf("%s: got %s with evidence %+v", id, p.ID(), p.Evidence)
		}
	}
	err := run(context.Background(), []string{"report", "-profile-ref", "x", "../../internal/matrix/testdata/runs"}, &stdout, &stderr)
	if !errors.As(err, new(usageError)) {
		t.Errorf("-profile-ref without -profile-out: %v, want a usage error", err)
	}
}
