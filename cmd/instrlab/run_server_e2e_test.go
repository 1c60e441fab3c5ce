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

	"github.com/instrlab/instrlab/internal/client/claudecode"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/qwen"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/lab"
)

// TestE2EUserServer runs real third-party servers from npm that set
// instructions (@modelcontextprotocol/server-everything and
// @upstash/context7-mcp, pinned in checkNPM) through two real clients with
// run -server, offline, each filed under its own name. The
// server's texts come from the proxy's log; where a client's profile is
// built in, check's prediction of what it keeps must equal what the run
// measured (the test fails when they part).
func TestE2EUserServer(t *testing.T) {
	dir := npmDir(t)
	for _, srv := range []struct {
		name    string
		command []string
	}{
		{"server-everything", []string{nodeBin(dir), npmServer(dir, "server-everything"), "stdio"}},
		{"context7-mcp", []string{nodeBin(dir), filepath.Join(dir, "node_modules", "@upstash", "context7-mcp", "dist", "index.js")}},
	} {
		t.Run(srv.name, func(t *testing.T) { testUserServer(t, srv.name, srv.command...) })
	}
}

func testUserServer(t *testing.T, name string, command ...string) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-client", claudecode.Name + "@" + claudecode.DefaultVersion, "-client", qwen.Name + "@" + qwen.DefaultVersion,
		"-lab", binary, "-j", "2", "-timeout", "120s", "-out", out, "-server", "--"}
	if err := run(context.Background(), append(args, command...), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	t.Logf("table:\n%s", stdout.String())
	_, results, _, err := report.Load(t.Context(), clients.New, out)
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("%d results, want one per client", len(results))
	}
	listed := 0
	defer func() {
		if listed == 0 {
			t.Errorf("no client listed the tools of %s", name)
		}
	}()
	for _, r := range results {
		if r.Status != "ok" {
			t.Errorf("%s: %s (%s)", r.Client, r.Status, r.Reason)
			continue
		}
		if r.Row != name || r.Server != name {
			t.Errorf("%s: row %q of server %q, want the server's own name %q", r.Client, r.Row, r.Server, name)
		}
		// The text of the era the client was in: Claude Code 2.1.328
		// probes server/discover, which context7-mcp 4.1.1 answers, so it
		// never sends initialize; server-everything does not answer it.
		text := r.ServerTexts.Instructions[lab.ReplyInitialize]
		if text == "" {
			text = r.ServerTexts.Instructions[lab.ReplyDiscover]
		}
		if text == "" {
			t.Fatalf("%s: the proxy's log holds no instructions of %s in either era", r.Client, name)
		}
		// A client may end its one turn before it lists the tools
		// (Claude Code with context7-mcp, once): then there are none to
		// locate, and the other client must have listed them.
		if len(r.ServerTexts.Tools) > 0 {
			listed++
		}
		if len(r.Tools) != len(r.ServerTexts.Tools) {
			t.Errorf("%s: %d tools located of %d listed", r.Client, len(r.Tools), len(r.ServerTexts.Tools))
		}
		// Both clients defer MCP tools behind a search tool: Claude Code
		// names them, Qwen Code lists them with their descriptions. Every
		// tool must be found in one form or the other, under the server's
		// own name.
		for _, tf := range r.Tools {
			if tf.Via == "" {
				t.Errorf("%s: tool %s located nowhere in the first request", r.Client, tf.Name)
			}
		}
		best := r.First.Best()
		if best != nil && !strings.Contains(best.Wrapper, name) {
			t.Errorf("%s: wrapper %q does not name the server %q", r.Client, best.Wrapper, name)
		}
		for _, p := range builtin {
			if p.ID() != r.Client || !p.Instructions.Measured {
				continue
			}
			want := p.Instructions.Apply(text, 0).KeptChars
			got := 0
			if best != nil {
				got = best.Kept
			}
			if got != want {
				t.Errorf("%s: check predicts %d of %d characters kept, run measured %d", r.Client, want, r.Sent, got)
			}
		}
		if best != nil && !best.Full && !strings.HasPrefix(analyze.LostTail(text, best.Kept), "cut in") {
			t.Errorf("%s: a cut text without its lost tail named", r.Client)
		}
	}
}

// TestE2EInstrFileSameAsRealServer: server-everything's own instructions,
// served by the lab from a file (an instr_file row), give the same cells as
// the real server behind the proxy.
func TestE2EInstrFileSameAsRealServer(t *testing.T) {
	dir := npmDir(t)
	common := []string{"-client", "fake@1", "-lab", binary, "-netns", "off"}
	srvOut, labOut := t.TempDir(), t.TempDir()
	var stderr bytes.Buffer
	if err := run(context.Background(), append(append([]string{"run", "-out", srvOut}, common...), "-server", "--", nodeBin(dir), npmServer(dir, "server-everything"), "stdio"), new(bytes.Buffer), &stderr); err != nil {
		t.Fatalf("run -server: %v\n%s", err, stderr.String())
	}
	rs := readResults(t, srvOut)
	if len(rs) != 1 || rs[0].ServerTexts == nil || rs[0].ServerTexts.Instructions[lab.ReplyInitialize] == "" {
		t.Fatalf("no instructions of server-everything in the proxy's log: %+v", rs)
	}
	mdir := t.TempDir()
	os.WriteFile(filepath.Join(mdir, "everything.md"), []byte(rs[0].ServerTexts.Instructions[lab.ReplyInitialize]), 0o644)
	mpath := filepath.Join(mdir, "m.json")
	os.WriteFile(mpath, []byte(`{"name":"t","repeats":1,"prompt":"say OK","rows":[{"name":"everything","label":"its text","instr_file":"everything.md"}]}`), 0o644)
	if err := run(context.Background(), append([]string{"run", "-matrix", mpath, "-out", labOut}, common...), new(bytes.Buffer), &stderr); err != nil {
		t.Fatalf("run the lab: %v\n%s", err, stderr.String())
	}
	cell := func(out string) []string {
		rs := readResults(t, out)
		if len(rs) != 1 || rs[0].First.Best() == nil {
			t.Fatalf("%s: %+v", out, rs)
		}
		r := rs[0]
		p := strings.Replace(report.PlacementCell(&r), "## server-everything", "## lab", 1)
		return []string{r.Status, fmt.Sprint(r.Sent), report.KeptCell(&r), p}
	}
	if diff := cmp.Diff(cell(labOut), cell(srvOut)); diff != "" {
		t.Errorf("server-everything's text through the lab and the real server behind the proxy differ (-lab +proxy):\n%s", diff)
	}
}
