package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/report"
)

// readResults reads results.json of an evidence directory.
func readResults(t *testing.T, out string) []matrix.Result {
	t.Helper()
	_, rs, _, err := report.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestRunServerSameAsLab: the lab's own text served by the lab, and the
// same server run as a user's server behind the proxy, give the same
// placement, characters kept and handshake.
func TestRunServerSameAsLab(t *testing.T) {
	labOut, srvOut := t.TempDir(), t.TempDir()
	common := []string{"-client", "fake@1", "-lab", binary, "-format", "md", "-netns", "off"}
	var stderr bytes.Buffer
	if err := run(context.Background(), append([]string{"run", "-matrix", seedFile(t), "-row", "en-5000", "-repeats", "1", "-out", labOut}, common...), new(bytes.Buffer), &stderr); err != nil {
		t.Fatalf("run the lab: %v\n%s", err, stderr.String())
	}
	args := append([]string{"run", "-out", srvOut}, common...)
	args = append(args, "-server", "--", binary, "serve", "lab", "-instr", "ascii:5000")
	var table bytes.Buffer
	if err := run(context.Background(), args, &table, &stderr); err != nil {
		t.Fatalf("run -server: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(table.String(), "; yours: ") || !strings.Contains(table.String(), `cut in "`) {
		t.Errorf("the table names neither the server's tools nor where its text was cut:\n%s", table.String())
	}
	type cells struct {
		Status, Placement, Wrapper string
		Kept, Sent                 int
		Full                       bool
		Methods                    []string
	}
	get := func(out string) cells {
		rs := readResults(t, out)
		if len(rs) != 1 {
			t.Fatalf("%s: %d results", out, len(rs))
		}
		r := rs[0]
		b := r.First.Best()
		if b == nil {
			t.Fatalf("%s: the text was not found in the first request", out)
		}
		return cells{r.Status, string(b.Kind), b.Wrapper, b.Kept, r.Sent, b.Full, r.Handshake.Methods}
	}
	lab, srv := get(labOut), get(srvOut)
	if diff := cmp.Diff(lab, srv); diff != "" {
		t.Errorf("the lab and the same server behind the proxy differ (-lab +proxy):\n%s", diff)
	}
	if lab.Kept == 0 || lab.Full {
		t.Errorf("the fake client's cap did not cut: %+v", lab)
	}
}

// TestRunServerFails: a server that exits at once, or writes garbage, is a
// failed run whose reason quotes the server's first stderr lines; the
// secret in its command line reaches no evidence.
func TestRunServerFails(t *testing.T) {
	for _, tc := range []struct{ name, script, want string }{
		{"exits", "echo 'Error: cannot find module ./build/index.js' >&2; echo second >&2; exit 4", "exit status 4 while the client was connected; its stderr began: Error: cannot find module ./build/index.js | second"},
		{"garbage", "echo 'listening on 3000'; exec " + binary + " serve lab -instr ascii:1000", "the server wrote a line that is not JSON-RPC: \"listening on 3000\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"run", "-client", "fake@1", "-lab", binary, "-out", out, "-netns", "off", "-timeout", "30s",
				"-server", "--", "sh", "-c", tc.script, "--token=hunter2secret"}
			err := run(context.Background(), args, new(bytes.Buffer), new(bytes.Buffer))
			if err == nil {
				t.Fatal("run -server with a failing server exited 0")
			}
			rs := readResults(t, out)
			if len(rs) != 1 || rs[0].Status != "failed" || !strings.Contains(rs[0].Reason, tc.want) {
				t.Fatalf("results: %+v\nwant a failed run with reason containing %q", rs, tc.want)
			}
			filepath.Walk(out, func(path string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() {
					if data, _ := os.ReadFile(path); bytes.Contains(data, []byte("hunter2secret")) {
						t.Errorf("%s holds the secret of the server's command line", path)
					}
				}
				return nil
			})
		})
	}
}
