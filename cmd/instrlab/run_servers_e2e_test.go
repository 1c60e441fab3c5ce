package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/lab"
)

// TestE2EServers runs the cross matrix's row of three lab servers through
// every pinned client, offline. For each client it checks the analysis of
// every server against the first main request itself: each server the
// client's config named was started (its own log shows a handshake); a
// server the analysis found is in the request with exactly its kept
// characters (those, and not one more, from the start of its text); one it
// did not find has nothing of its text there; and the order it gives is
// the order of the texts in the request. Nothing about a client's cap,
// placement or order is assumed.
func TestE2EServers(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run every client end to end (npm installs on first use)")
	}
	row, ok := crossRow("servers")
	if !ok {
		t.Fatal("the cross matrix has no servers row")
	}
	// The row's three labs share their tool names, which one client
	// refuses (checkServers): its run fails, as measured.
	results := runE2EFailing(t, true, "-client", "all", "-matrix", "cross", "-row", row.Name, "-lab", binary, "-j", "2", "-timeout", "360s")
	pinned, err := clients.NewList(context.Background(), []string{clients.All}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != len(pinned) {
		t.Errorf("%d results, want one per pinned client (%d)", len(results), len(pinned))
	}
	checkServers(t, row, results)
}

// checkServers checks each result of a row of several lab servers against
// its own evidence (see TestE2EServers).
func checkServers(t *testing.T, row matrix.Row, results []analyze.Result) {
	t.Helper()
	var names []string
	for _, s := range row.Servers {
		names = append(names, s.Name)
	}
	for _, r := range results {
		t.Logf("%s: %s", r.Client, report.PlacementCell(&r))
		if r.Status != "ok" {
			if strings.Contains(r.Reason, "Duplicate tool name") && r.First == nil {
				// The OpenAI Agents SDK 0.20.0 ("Duplicate tool names
				// found across MCP servers") and ADK for TypeScript 2.0.0
				// ("Duplicate tool name: lab_ping") end the run before any
				// model request when two servers share a tool name
				// (docs/findings.md, 2026-12-06): their words for it.
				t.Logf("%s: refuses servers that share tool names: %s", r.Client, r.Reason)
				continue
			}
			t.Errorf("%s: status %q (%s)", r.Client, r.Status, r.Reason)
			continue
		}
		if r.ModelAnswer != r.Reader.Line() {
			t.Errorf("%s: the client printed %q, the reader says %q", r.Client, r.ModelAnswer, r.Reader.Line())
		}
		var got []string
		for _, s := range r.Servers {
			got = append(got, s.Name)
		}
		if diff := cmp.Diff(names, got); diff != "" {
			t.Errorf("%s: servers mismatch (-want +got):\n%s", r.Client, diff)
			continue
		}
		for i, s := range row.Servers {
			msgs, _, err := analyze.ReadLabLog(evidence.RunDir(r.Dir).ServerLog(i, s.Name))
			if err != nil || !handshook(msgs) {
				t.Errorf("%s: server %s: the client did not start it or sent no handshake (%v)", r.Client, s.Name, err)
			}
		}
		text := firstRequestText(t, r)
		last := -1
		for _, s := range byOrder(r.Servers) {
			full := serverText(t, row, s.Name)
			at := strings.Index(text, firstRunes(full, s.Kept))
			switch {
			case s.Order == 0:
				if s.Kept != 0 || len(s.Placements) != 0 || strings.Contains(text, codewordLine(full)) {
					t.Errorf("%s: server %s not found by the analysis (kept %d), yet its first sentence is in the request", r.Client, s.Name, s.Kept)
				}
				continue
			case s.Kept <= 0 || s.Kept > s.Sent || at < 0:
				t.Errorf("%s: server %s kept %d of %d, at %d in the request", r.Client, s.Name, s.Kept, s.Sent, at)
				continue
			case s.Kept < s.Sent && strings.Contains(text, firstRunes(full, s.Kept+1)):
				t.Errorf("%s: server %s: the request holds more than the %d characters the analysis says were kept", r.Client, s.Name, s.Kept)
			}
			if s.Sent != len([]rune(full)) {
				t.Errorf("%s: server %s sent %d, its text is %d", r.Client, s.Name, s.Sent, len([]rune(full)))
			}
			if at < last {
				t.Errorf("%s: server %s is #%d in the analysis, but its text comes before the one before it", r.Client, s.Name, s.Order)
			}
			last = at
		}
	}
}

// crossRow is the cross matrix's row named name.
func crossRow(name string) (matrix.Row, bool) {
	for _, r := range matrix.Cross().Rows {
		if r.Name == name {
			return r, true
		}
	}
	return matrix.Row{}, false
}

// byOrder lists the servers found in the request's order, then the rest.
func byOrder(servers []analyze.ServerResult) []analyze.ServerResult {
	var in, out []analyze.ServerResult
	for n := 1; n <= len(servers); n++ {
		for _, s := range servers {
			if s.Order == n {
				in = append(in, s)
			}
		}
	}
	for _, s := range servers {
		if s.Order == 0 {
			out = append(out, s)
		}
	}
	return append(in, out...)
}

// handshook says the log shows the client asking for the server's
// instructions in either era.
func handshook(msgs []analyze.LabMessage) bool {
	for _, m := range msgs {
		if m.Dir == lab.Recv && (m.Method == "initialize" || m.Method == "server/discover") {
			return true
		}
	}
	return false
}

// serverText is the initialize-era text the lab server name of row
// serves: the lab's generator, seeded with the name as the runner does.
func serverText(t *testing.T, row matrix.Row, name string) string {
	t.Helper()
	spec := row.Instr
	for _, s := range row.Servers {
		if s.Name == name && s.Instr != "" {
			spec = s.Instr
		}
	}
	in, err := lab.ParseInstructions(spec)
	if err != nil {
		t.Fatal(err)
	}
	in.Seed = name
	txt, err := in.For(lab.ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	return txt.Text
}

// firstRequestText is the decoded text of r's first main request, read
// again from the recorded requests.
func firstRequestText(t *testing.T, r analyze.Result) string {
	t.Helper()
	reqs, _, err := fakeapi.ReadRequests(evidence.RunDir(r.Dir).Requests())
	if err != nil || r.First == nil {
		t.Fatalf("%s: no first request (%v)", r.Client, err)
	}
	for _, q := range reqs {
		if q.Seq != r.First.Seq {
			continue
		}
		api, ok := fakeapi.Lookup(q.API)
		if !ok {
			t.Fatalf("%s: unknown API %q", r.Client, q.API)
		}
		ctx, err := api.Context(q.Body)
		if err != nil {
			t.Fatal(err)
		}
		return ctx.Text()
	}
	t.Fatalf("%s: request %d not recorded", r.Client, r.First.Seq)
	return ""
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	return string(r[:min(n, len(r))])
}

// codewordLine is a text's opening, up to its begin codeword's end: what
// only that server's text holds.
func codewordLine(text string) string {
	if i := strings.Index(text, ". "); i > 0 {
		return text[:i+1]
	}
	return text
}
