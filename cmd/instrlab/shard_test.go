package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyTree copies the regular files under src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || !info.Mode().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func reportOf(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), append([]string{"report"}, args...), &stdout, &stderr); err != nil {
		t.Fatalf("report %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.String()
}

// TestShardsMergeIntoOneRun runs a matrix whole and as two shards in
// sequence: the shards split the runs between them, report over both
// directories is byte for byte the report of one directory holding all
// their runs, and every measured cell (timing aside) equals the whole run's.
func TestShardsMergeIntoOneRun(t *testing.T) {
	base := []string{"run", "-client", "fake@1", "-matrix", seedFile(t), "-lab", binary, "-row", "none", "-row", "en-1000", "-row", "en-5000", "-repeats", "1", "-j", "2"}
	dirs := map[string]string{}
	for _, shard := range []string{"", "1/2", "2/2"} {
		out := t.TempDir()
		args := append(append([]string(nil), base...), "-out", out)
		if shard != "" {
			args = append(args, "-shard", shard)
		}
		var stderr bytes.Buffer
		if err := run(context.Background(), args, new(bytes.Buffer), &stderr); err != nil {
			t.Fatalf("run -shard %q: %v\n%s", shard, err, stderr.String())
		}
		dirs[shard] = out
	}
	count := func(dir string) int {
		n := 0
		filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Name() == "run.json" {
				n++
			}
			return nil
		})
		return n
	}
	if a, b, w := count(dirs["1/2"]), count(dirs["2/2"]), count(dirs[""]); a+b != w || a == 0 || b == 0 {
		t.Fatalf("shards ran %d and %d runs, the whole %d", a, b, w)
	}
	merged := reportOf(t, "-format", "md", dirs["1/2"], dirs["2/2"])
	together := t.TempDir()
	copyTree(t, dirs["1/2"], together)
	copyTree(t, dirs["2/2"], together)
	if one := reportOf(t, "-format", "md", together); one != merged {
		t.Errorf("report of two shard directories differs from one directory holding both:\n--- merged\n%s\n--- one\n%s", merged, one)
	}
	// Timing aside, the merged shards measure what the whole run does.
	cells := func(js string) []string {
		var v struct {
			Results []struct {
				Client, Row, Status string
				First               *struct {
					Placements []struct {
						Kind string
						Kept int
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(js), &v); err != nil {
			t.Fatalf("%v\n%s", err, js)
		}
		var out []string
		for _, r := range v.Results {
			s := r.Client + " " + r.Row + " " + r.Status
			if r.First != nil {
				for _, p := range r.First.Placements {
					s += fmt.Sprintf(" %s %d", p.Kind, p.Kept)
				}
			}
			out = append(out, s)
		}
		return out
	}
	if diff := cmp.Diff(cells(reportOf(t, "-format", "json", dirs[""])), cells(reportOf(t, "-format", "json", dirs["1/2"], dirs["2/2"]))); diff != "" {
		t.Errorf("merged shards measure otherwise than the whole run (-whole +merged):\n%s", diff)
	}
	// Different matrices do not merge.
	other := t.TempDir()
	args := []string{"run", "-client", "fake@1", "-matrix", seedFile(t), "-lab", binary, "-row", "ja-3000", "-repeats", "1", "-out", other}
	if err := run(context.Background(), args, new(bytes.Buffer), new(bytes.Buffer)); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"report", dirs["1/2"], other}, new(bytes.Buffer), new(bytes.Buffer))
	if err == nil || !strings.Contains(err.Error(), "cannot be merged") {
		t.Errorf("report of two matrices: %v, want a refusal", err)
	}
	if code := exitCode(run(context.Background(), []string{"run", "-shard", "3/2"}, new(bytes.Buffer), new(bytes.Buffer)), new(bytes.Buffer)); code != exitUsage {
		t.Errorf("-shard 3/2 exited %d, want %d", code, exitUsage)
	}
}
