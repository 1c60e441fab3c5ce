package analyze

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/lab"
)

// The tests below run one of Run's steps on a fixture run (testdata) and
// check what that step alone fills in; TestAnalyzeGolden checks them all
// together.

// analysisOf is a fixture run as Run holds it before its first step: the
// record read, the Result's fields the record says.
func analysisOf(t *testing.T, run string) *analysis {
	t.Helper()
	dir := filepath.Join("testdata", run)
	rec, err := ReadRecord(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &analysis{dir: dir, rec: rec, res: resultOf(rec, dir)}
}

// TestGenerateTexts: a lab row's texts are generated again from its
// -instr, with the codewords the client passed on (TestAnalyzeFacts'
// readers); a row without instructions, or with a user's server, gets
// none; a row whose -instr does not parse says so.
func TestGenerateTexts(t *testing.T) {
	for _, tc := range []struct {
		run      string
		sent     int
		codeword map[lab.Reply]string // a codeword each reply's text holds
	}{
		{"runs/claude-code@2.1.328/en-5000/1", 5000, map[lab.Reply]string{lab.ReplyInitialize: "WARBLER-6225"}},
		{"runs/claude-code@2.1.328/en-1000-dual/1", 1000, map[lab.Reply]string{lab.ReplyInitialize: "PINTAIL-8601", lab.ReplyDiscover: "PELICAN-2356"}},
		{"runs/claude-code@2.1.328/none/1", 0, nil},
		{"serverruns/codex@0.171.0/server-everything/1", 0, nil},
	} {
		t.Run(tc.run, func(t *testing.T) {
			a := analysisOf(t, tc.run)
			a.generateTexts()
			if a.res.Sent != tc.sent || utf8.RuneCountInString(a.texts[lab.ReplyInitialize]) != tc.sent {
				t.Errorf("sent %d, initialize text of %d characters; want %d", a.res.Sent, utf8.RuneCountInString(a.texts[lab.ReplyInitialize]), tc.sent)
			}
			for reply, word := range tc.codeword {
				if !strings.Contains(a.texts[reply], word) {
					t.Errorf("the %s text does not hold %s", reply, word)
				}
			}
			if tc.codeword == nil && len(a.texts) > 0 {
				t.Errorf("texts for %d replies, want none", len(a.texts))
			}
			if len(a.res.Warnings) > 0 {
				t.Errorf("warnings: %q", a.res.Warnings)
			}
		})
	}
	a := analysisOf(t, "runs/claude-code@2.1.328/en-5000/1")
	a.rec.Row.Instr = "no-such-kind:10"
	a.generateTexts()
	if len(a.texts) > 0 || len(a.res.Warnings) != 1 || !strings.HasPrefix(a.res.Warnings[0], "run.json: row instr: ") {
		t.Errorf("an -instr that does not parse: %d texts, warnings %q", len(a.texts), a.res.Warnings)
	}
}

// TestLoggedTexts: a user's server's texts are the ones its replies
// carried in the log (server-everything's instructions of 1,574
// characters and 15 tools); a row that serves a file is named by the
// file's base name.
func TestLoggedTexts(t *testing.T) {
	const run = "serverruns/codex@0.171.0/server-everything/1"
	a := analysisOf(t, run)
	if !textsInLog(a.rec.Row) {
		t.Fatalf("row %s: texts not taken from the log", a.rec.Row.Name)
	}
	if lab := analysisOf(t, "runs/claude-code@2.1.328/en-5000/1"); textsInLog(lab.rec.Row) {
		t.Errorf("lab row %s: texts taken from the log", lab.rec.Row.Name)
	}
	a.readLabLog()
	a.loggedTexts()
	if a.res.Server != "server-everything" || a.res.ServerTexts == nil || a.res.ServerStart != a.rec.Server {
		t.Fatalf("server %q, texts %v, start %v", a.res.Server, a.res.ServerTexts, a.res.ServerStart)
	}
	if a.res.Sent != 1574 || utf8.RuneCountInString(a.texts[lab.ReplyInitialize]) != 1574 || len(a.res.ServerTexts.Tools) != 15 {
		t.Errorf("sent %d, initialize text of %d characters, %d tools; want 1574, 1574, 15",
			a.res.Sent, utf8.RuneCountInString(a.texts[lab.ReplyInitialize]), len(a.res.ServerTexts.Tools))
	}
	if a.res.Instr != "none" {
		t.Errorf("instr %q, want the row's", a.res.Instr)
	}
	a.rec.Row.InstrFile = "/home/someone/instructions.md"
	a.loggedTexts()
	if a.res.Instr != "file:instructions.md" {
		t.Errorf("instr %q for a served file", a.res.Instr)
	}
}

// requestsOf is a fixture run after the steps that read its evidence and
// make each request's facts.
func requestsOf(t *testing.T, run string) *analysis {
	t.Helper()
	a := analysisOf(t, run)
	a.generateTexts()
	a.readLabLog()
	a.readRequests()
	a.requestFacts()
	if len(a.bodies) != len(a.res.Requests) || len(a.ctxs) != len(a.res.Requests) {
		t.Fatalf("%d requests, %d bodies, %d contexts", len(a.res.Requests), len(a.bodies), len(a.ctxs))
	}
	return a
}

// TestRequestFacts: each model request gets its tools and the places of
// the lab's texts in it, a request to no model API is listed apart, and
// a server connected late shows in the second request only.
func TestRequestFacts(t *testing.T) {
	type request struct {
		Seq        int
		Tools      int
		LabTools   int
		Placements []string
	}
	for _, tc := range []struct {
		run   string
		want  []request
		other []string
	}{
		{"runs/claude-code@2.1.285/en-1000-dual/1", []request{{2, 23, 3, []string{"initialize system-message 1000 full"}}}, []string{"HEAD /api/hello 404"}},
		{"runs/claude-code@2.1.328/en-5000/1", []request{{1, 12, 0, []string{"initialize system-message 4096"}}}, nil},
		{"runs/claude-code@2.1.328/en-1000-late/1", []request{{1, 12, 0, nil}, {2, 12, 0, []string{"initialize system-message 1000 full"}}}, nil},
	} {
		t.Run(tc.run, func(t *testing.T) {
			a := requestsOf(t, tc.run)
			var got []request
			for _, q := range a.res.Requests {
				r := request{Seq: q.Seq, Tools: len(q.Tools)}
				for _, name := range q.Tools {
					if strings.HasPrefix(name, "mcp__lab__") {
						r.LabTools++
					}
				}
				for _, p := range q.Placements {
					s := fmt.Sprintf("%s %s %d", p.Reply, p.Kind, p.Kept)
					if p.Full {
						s += " full"
					}
					r.Placements = append(r.Placements, s)
				}
				got = append(got, r)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("requests mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.other, a.res.Other); diff != "" {
				t.Errorf("other requests mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMainRequestFacts: a request that offers no tools is a side request
// and the first main one follows it, the lab's surface tools are located
// in it; a lab row marks each request that names a lab tool; a run with
// no model request says so.
func TestMainRequestFacts(t *testing.T) {
	a := requestsOf(t, "surfaceruns/gemini@0.61.0/surface-names/1")
	a.mainRequestFacts()
	var side []bool
	for _, q := range a.res.Requests {
		side = append(side, q.Side)
	}
	if diff := cmp.Diff([]bool{true, false, false}, side); diff != "" {
		t.Errorf("side requests mismatch (-want +got):\n%s", diff)
	}
	if a.res.First == nil || a.res.First.Seq != 2 || a.res.First.Parts == nil || a.res.RequestKey == "" {
		t.Fatalf("first %+v, key %q; want request 2 with its layout and key", a.res.First, a.res.RequestKey)
	}
	if len(a.res.Tools) != 12 || a.res.Tools[1].Name != "lab_ping" || a.res.Tools[1].Via != ViaDefinition || !a.res.Tools[1].Full {
		t.Errorf("surface tools: %+v", a.res.Tools)
	}

	late := requestsOf(t, "runs/claude-code@2.1.328/en-1000-late/1")
	late.mainRequestFacts()
	if late.res.Requests[0].NamesLabTool || !late.res.Requests[1].NamesLabTool {
		t.Errorf("names a lab tool: %v, %v; want the second request only", late.res.Requests[0].NamesLabTool, late.res.Requests[1].NamesLabTool)
	}
	if got := late.res.Reader.Line(); got != "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798" || late.res.Session == nil {
		t.Errorf("reader %q, session %v", got, late.res.Session)
	}

	none := analysisOf(t, "runs/claude-code@2.1.328/none/1")
	none.mainRequestFacts()
	if none.res.Reader.Last != -1 || none.res.First != nil || len(none.res.Warnings) != 1 || none.res.Warnings[0] != "no model request was recorded" {
		t.Errorf("no request: reader %+v, first %v, warnings %q", none.res.Reader, none.res.First, none.res.Warnings)
	}
}

// TestJudgeServer: a server that never answered the handshake
// (testdata/lablogs/codex-late-server) fails a run with no model request
// after it, adds to the reason of a run that failed already, is late and
// no failure when a model request came, and is the hold's doing on a row
// whose proxy held the reply; a run whose texts are not a logged
// server's is not judged by it.
func TestJudgeServer(t *testing.T) {
	msgs, _, err := ReadLabLog(filepath.Join("testdata", "lablogs", "codex-late-server.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	model := time.Date(2026, 12, 5, 18, 57, 15, 708183049, time.UTC) // its one model request
	const never = "never answered the handshake"
	for _, tc := range []struct {
		name          string
		logged        bool
		status        string
		initDelay     time.Duration
		request       bool
		status2       string
		reason, warns string // what each holds
	}{
		{"no request", true, StatusOK, 0, false, StatusFailed, never, ""},
		{"failed already", true, StatusFailed, 0, false, StatusFailed, "timed out; server: the server " + never, ""},
		{"late", true, StatusOK, 0, true, StatusOK, "", "a late server, not a failure"},
		{"held", true, StatusOK, 8 * time.Second, false, StatusOK, "", "the proxy was holding its first reply (init_delay 8s), so not counted as a failure"},
		{"not logged", false, StatusOK, 0, false, StatusOK, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &analysis{msgs: msgs, res: Result{Status: tc.status}}
			a.rec.Row.Server, a.rec.Row.InitDelay = "late", tc.initDelay
			if tc.status == StatusFailed {
				a.res.Reason = "timed out"
			}
			if tc.logged {
				a.res.ServerTexts = &ServerTexts{}
			}
			if tc.request {
				a.res.Requests = []RequestFacts{{Seq: 1, Time: model}}
			}
			a.judgeServer()
			warnings := strings.Join(a.res.Warnings, "\n")
			if a.res.Status != tc.status2 || !strings.Contains(a.res.Reason, tc.reason) || (tc.reason == "") != (a.res.Reason == "") ||
				!strings.Contains(warnings, tc.warns) || (tc.warns == "") != (warnings == "") {
				t.Errorf("status %q, reason %q, warnings %q; want %q, a reason with %q, a warning with %q",
					a.res.Status, a.res.Reason, warnings, tc.status2, tc.reason, tc.warns)
			}
		})
	}
}

// TestObserve: the client's own files give its answer and the place of
// the lab's text in its transcript (Claude Code's session, cut at 4,096
// as in the request); a client that is not found is a warning.
func TestObserve(t *testing.T) {
	a := analysisOf(t, "runs/claude-code@2.1.328/en-5000/1")
	a.generateTexts()
	a.observe(clients.New)
	if a.res.ModelAnswer != "BEGIN=WARBLER-6225 END=NONE LAST=4034" || a.res.ModelAnswer != a.res.Observation.Answer {
		t.Errorf("model answer %q, observed %q", a.res.ModelAnswer, a.res.Observation.Answer)
	}
	if len(a.res.Transcript) != 1 || a.res.Transcript[0].Kind != "role system" || a.res.Transcript[0].Kept != 4096 || a.res.Transcript[0].Reply != lab.ReplyInitialize {
		t.Errorf("transcript %+v, want the initialize text in a system block, 4096 kept", a.res.Transcript)
	}
	if len(a.res.Warnings) > 0 {
		t.Errorf("warnings: %q", a.res.Warnings)
	}

	missing := analysisOf(t, "runs/claude-code@2.1.328/en-5000/1")
	missing.generateTexts()
	missing.observe(func(string) (client.Client, error) { return nil, errors.New("no client claude-code@2.1.328") })
	if diff := cmp.Diff([]string{"no client claude-code@2.1.328"}, missing.res.Warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
	if missing.res.Transcript != nil || missing.res.ModelAnswer != "" {
		t.Errorf("no client: transcript %+v, answer %q", missing.res.Transcript, missing.res.ModelAnswer)
	}
}
