package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/report"
)

// readResults reads results.json of an evidence directory.
func readResults(t *testing.T, out string) []analyze.Result {
	t.Helper()
	_, rs, _, err := report.Load(t.Context(), clients.New, out)
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
	// The user's server is filed under its own name, which the wrapper
	// names; apart from the name, the cells are the lab's.
	srv.Wrapper = ownName(t, srv.Wrapper)
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
		{"exits", "echo 'Error: cannot find module ./build/index.js' >&2; echo second >&2; exit 4", "exit status 4 while the client was connected; its stderr: Error: cannot find module ./build/index.js ⏎ second"},
		{"garbage", "echo 'listening on 3000'; exec " + binary + " serve lab -instr ascii:1000", "the server wrote a line that is not JSON-RPC: \"listening on 3000\""},
		// A server that answers the handshake and then ends is not run
		// here: the fake client may close its input first, which makes
		// the test race; TestServerFailureOutsideSignal covers the log.
		// The fake client waits for initialize without a limit, so the
		// run times out; the reason says why the server is to blame.
		// The server keeps its stdout open: one that closes it is ended
		// at once (TestServeCommandServerLetsGo).
		{"never answers", "echo 'loading' >&2; exec sleep 60", "timed out after 10s; server: the server never answered the handshake; its stderr: loading"},
		{"fails to start", "", "starting the server: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			command := []string{"sh", "-c", tc.script, "--token=hunter2secret"}
			if tc.script == "" {
				command = []string{filepath.Join(t.TempDir(), "no-such-server"), "--token=hunter2secret"}
			}
			args := append([]string{"run", "-client", "fake@1", "-lab", binary, "-out", out, "-netns", "off", "-timeout", "10s",
				"-server", "--"}, command...)
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

// TestRunInstrFileSameAsProxy: a user's own text served by the lab from a
// file (an instr_file row) and the same file served by a server behind
// the proxy give the same cells.
func TestRunInstrFileSameAsProxy(t *testing.T) {
	dir := t.TempDir()
	text := "# Parts server\n\nUse lookup_part for stock counts. " + strings.Repeat("Counts are whole units. ", 120) + "\n## Ordering\n\nNever order more than ten parts at once.\n"
	file := filepath.Join(dir, "instructions.md")
	os.WriteFile(file, []byte(text), 0o644)
	mpath := filepath.Join(dir, "m.json")
	os.WriteFile(mpath, []byte(`{"name":"t","repeats":1,"prompt":"say OK","rows":[{"name":"mine","label":"my text","instr_file":"instructions.md"}]}`), 0o644)
	labOut, srvOut := t.TempDir(), t.TempDir()
	common := []string{"-client", "fake@1", "-lab", binary, "-netns", "off"}
	var stderr bytes.Buffer
	if err := run(context.Background(), append([]string{"run", "-matrix", mpath, "-out", labOut}, common...), new(bytes.Buffer), &stderr); err != nil {
		t.Fatalf("run the lab: %v\n%s", err, stderr.String())
	}
	args := append(append([]string{"run", "-out", srvOut}, common...), "-server", "--", binary, "serve", "lab", "-instr-file", file)
	if err := run(context.Background(), args, new(bytes.Buffer), &stderr); err != nil {
		t.Fatalf("run -server: %v\n%s", err, stderr.String())
	}
	cell := func(out string) []string {
		rs := readResults(t, out)
		if len(rs) != 1 || rs[0].First.Best() == nil {
			t.Fatalf("%s: %+v", out, rs)
		}
		r := rs[0]
		return []string{r.Status, fmt.Sprint(r.Sent), report.KeptCell(&r), report.PlacementCell(&r)}
	}
	lab, srv := cell(labOut), cell(srvOut)
	srv[3] = ownName(t, srv[3])
	if diff := cmp.Diff(lab, srv); diff != "" {
		t.Errorf("instr_file through the lab and the same file behind the proxy differ (-lab +proxy):\n%s", diff)
	}
	if !strings.Contains(lab[2], `cut in "Counts are whole units.`) || !strings.Contains(lab[2], `lost 1 heading(s) from "## Ordering"`) {
		t.Errorf("kept cell %q does not name the lost sentence and heading", lab[2])
	}
}

// ownName checks that a wrapper names the server run with -server --
// binary under its own name, and returns it with the lab's name instead.
func ownName(t *testing.T, wrapper string) string {
	t.Helper()
	name := probe.CommandName(binary, nil)
	if name == matrix.ServerName || !strings.Contains(wrapper, "## "+name) {
		t.Errorf("wrapper %q does not name the server %q", wrapper, name)
	}
	return strings.Replace(wrapper, "## "+name, "## "+matrix.ServerName, 1)
}
