package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/report"
)

const diffFixtures = "../../internal/report/testdata/diff/"

func TestDiffExitCodes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"diff", diffFixtures + "2.1.328", diffFixtures + "2.1.328-again"}, &stdout, &stderr); err != nil {
		t.Errorf("same version twice: %v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "0 changes in 4 rows") {
		t.Errorf("same version twice printed:\n%s", stdout.String())
	}
	stdout.Reset()
	err := run(context.Background(), []string{"diff", "-json", diffFixtures + "2.1.285", diffFixtures + "2.1.328"}, &stdout, &stderr)
	if code := exitCode(err, io.Discard); code != exitFailure {
		t.Errorf("two versions: %v (exit %d), want exit 1", err, code)
	}
	var d report.Diff
	if err := json.Unmarshal(stdout.Bytes(), &d); err != nil || len(d.Changes) != 7 {
		t.Errorf("-json: %v, %d changes:\n%s", err, len(d.Changes), stdout.String())
	}
	for _, args := range [][]string{
		{diffFixtures + "2.1.285"},
		{"-tolerance", "1.5", diffFixtures + "2.1.285", diffFixtures + "2.1.328"},
		{diffFixtures + "2.1.285", "/no/such/dir"},
	} {
		err := run(context.Background(), append([]string{"diff"}, args...), new(bytes.Buffer), new(bytes.Buffer))
		if !errors.As(err, new(usageError)) {
			t.Errorf("diff %q: %v, want a usage error", args, err)
		}
	}
}
