package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
)

// TestJudgeOrder: the lab's tools as offered, against its listings.
func TestJudgeOrder(t *testing.T) {
	byName := []string{"a", "b", "c"}
	rot1, rot2 := []string{"b", "c", "a"}, []string{"c", "a", "b"}
	for _, tt := range []struct {
		offered  []string
		listings [][]string
		want     string
	}{
		{rot2, [][]string{rot1, rot2}, ToolOrderServer}, // the second listing's
		{byName, [][]string{rot1}, ToolOrderName},
		{[]string{"c", "b", "a"}, [][]string{rot1}, ToolOrderOther},
		{byName, [][]string{byName}, ""},                                   // keeping and sorting look alike
		{[]string{"b", "a"}, [][]string{{"b", "x", "a"}}, ToolOrderServer}, // a tool not offered
		{[]string{"a"}, [][]string{rot1}, ""},
		{byName, nil, ""},
	} {
		if got := judgeOrder(tt.offered, tt.listings); got != tt.want {
			t.Errorf("judgeOrder(%q, %q) = %q, want %q", tt.offered, tt.listings, got, tt.want)
		}
	}
}

// TestMovedText: where the instructions went from one request to the next.
func TestMovedText(t *testing.T) {
	at := func(paths ...string) []Placement {
		var ps []Placement
		for _, p := range paths {
			ps = append(ps, Placement{Path: p})
		}
		return ps
	}
	for _, tt := range []struct {
		a, b []Placement
		want string
	}{
		{nil, nil, ""},
		{at("system"), at("system"), "same place"},
		{at("system"), nil, "dropped"},
		{nil, at("system"), "added"},
		{at("messages[0].content"), at("messages[0].content", "messages[4].content"), "re-sent: also at messages[4].content"},
		{at("messages[1].content"), at("messages[2].content"), "moved: messages[1].content → messages[2].content"},
		{at("messages[1].content[0].text"), at("messages[1].content"), "same message, another form: messages[1].content[0].text → messages[1].content"},
	} {
		if got := movedText(tt.a, tt.b); got != tt.want {
			t.Errorf("movedText(%v, %v) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestToolsText: what became of the lab's tool definitions.
func TestToolsText(t *testing.T) {
	a, b, b2 := labDef{"a", "A"}, labDef{"b", "B"}, labDef{"b", "B2"}
	for _, tt := range []struct {
		x, y []labDef
		want string
	}{
		{nil, nil, ""},
		{[]labDef{a, b}, []labDef{a, b}, "same"},
		{[]labDef{a, b}, []labDef{b, a}, "reordered"},
		{[]labDef{a, b}, []labDef{a, b2}, "changed"},
		{[]labDef{a}, []labDef{a, b}, "1 → 2"},
		{[]labDef{a}, nil, "dropped"},
		{nil, []labDef{a}, "added"},
	} {
		if got := toolsText(tt.x, tt.y); got != tt.want {
			t.Errorf("toolsText(%v, %v) = %q, want %q", tt.x, tt.y, got, tt.want)
		}
	}
}

// TestReconnectRealRuns reads real runs of the sessions matrix's
// turns3-reconnect row (instrlab run -matrix sessions -row
// turns3-reconnect -client all, 2026-12-03), the requests trimmed (their
// codewords kept) and the lab's log without bodies by
// testdata/sessions/trim.py --codewords: the lab lost the session after the
// first tools/call, so the second got 404, and gave each new session a
// text of its own. Each client's new sessions fall in the pair of turns
// whose call was lost, with what it sent in them; every turn holds the
// first session's text; the run is ok when the client opened a session,
// failed when not.
func TestReconnectRealRuns(t *testing.T) {
	type pair struct {
		From, To int
		Changed  []string
		Reopened []string
	}
	for _, tt := range []struct {
		client   string
		pairs    []pair
		status   string
		sessions int
		// words are the session's line's on new sessions (the trimmed
		// requests cut the lists that name deferred tools, so the rest
		// of the line is not the real run's).
		words string
	}{
		// Two sessions at once, neither lists the tools; the call goes
		// again in the second, and the next request keeps the prefix.
		{"claude-code@2.1.332", []pair{{1, 2, []string{"tools", "messages[1] (same text, another form)"}, nil}, {2, 3, nil, nil}, {3, 4, []string{"tools"}, nil},
			{4, 5, nil, []string{"initialize", "initialize", "server/discover", "server/discover", "tools/call"}}},
			StatusOK, 3, "; 2 new sessions before turn 5, tools not listed again"},
		{"codex@0.171.0", []pair{{1, 2, nil, nil}, {2, 3, nil, []string{"initialize", "tools/call"}}},
			StatusOK, 2, "; a new session before turn 3, tools not listed again"},
		// Lists the tools again, in the new order (the lab's second
		// listing), twice more after the call, and offers them sorted as
		// before.
		{"copilot@1.0.102", []pair{{1, 2, nil, nil}, {2, 3, nil, []string{"initialize", "server/discover", "tools/call", "tools/list", "tools/list", "tools/list"}}},
			StatusOK, 2, "; a new session before turn 3, tools listed again"},
		// Reconnects and lists again, but does not send the call again
		// (its tools are not marked safe to replay).
		{"qwen@0.24.4", []pair{{1, 2, nil, nil}, {2, 3, nil, nil}, {3, 4, nil, nil},
			{4, 5, nil, []string{"initialize", "prompts/list", "resources/list", "tools/list"}}},
			StatusOK, 2, "; a new session before turn 5, tools listed again"},
		// Opens no new session: the 404 is the call's result.
		{"gemini@0.61.0", []pair{{2, 3, nil, nil}, {3, 4, nil, nil}},
			StatusFailed, 1, ""},
	} {
		t.Run(tt.client, func(t *testing.T) {
			dir := filepath.Join("testdata", "sessions", "reconnect")
			facts, bodies, ctxs := readRequests(t, filepath.Join(dir, tt.client+".jsonl"))
			msgs, warns, err := ReadLabLog(filepath.Join(dir, tt.client+".lab.jsonl"))
			if err != nil || len(warns) > 0 {
				t.Fatal(err, warns)
			}
			sv, err := servedBy(msgs, "ascii:1000", true)
			if err != nil {
				t.Fatal(err)
			}
			s, warns := session(facts, bodies, ctxs, sv)
			if s == nil || len(warns) > 0 {
				t.Fatalf("no session: %q", warns)
			}
			var got []pair
			for _, p := range s.Pairs {
				got = append(got, pair{p.From, p.To, p.Changed, p.Reopened})
				if p.Texts != "" {
					t.Errorf("%d → %d: the texts of sessions %s; every client kept the first session's", p.From, p.To, p.Texts)
				}
			}
			held := "1" // the first session's text, in every turn
			if tt.client == "copilot@1.0.102" {
				held = "none" // its default keeps servers' instructions out
			}
			for i, ctx := range ctxs {
				if got := sv.held(ctx); len(facts[i].Tools) > 0 && got != held {
					t.Errorf("request %d holds the texts of sessions %s, want %s", facts[i].Seq, got, held)
				}
			}
			if diff := cmp.Diff(tt.pairs, got); diff != "" {
				t.Errorf("pairs mismatch (-want +got):\n%s", diff)
			}
			if got := s.reopenedWords(); got != tt.words || !strings.Contains(s.Line(), tt.words) || !strings.Contains(s.Verdict(), tt.words) {
				t.Errorf("reopened: %q, want %q in the line (%s) and the verdict (%s)", got, tt.words, s.Line(), s.Verdict())
			}
			h := httpFacts(msgs)
			status, reason := h.judge(StatusOK, "")
			if status != tt.status || h.Sessions != tt.sessions || (status == StatusFailed) != strings.Contains(reason, "the client sent nothing after") {
				t.Errorf("status %s (%s), %d sessions: want %s, %d", status, reason, h.Sessions, tt.status, tt.sessions)
			}
		})
	}
}

// TestSessionTextsChanged: a request that holds another session's text
// than the one before is said so, in the pair and the line. The real runs
// have none (every client kept the first text): the last request of Claude
// Code's is given the third session's codewords in place of the first's.
func TestSessionTextsChanged(t *testing.T) {
	dir := filepath.Join("testdata", "sessions", "reconnect")
	facts, bodies, ctxs := readRequests(t, filepath.Join(dir, "claude-code@2.1.332.jsonl"))
	msgs, _, err := ReadLabLog(filepath.Join(dir, "claude-code@2.1.332.lab.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	sv, err := servedBy(msgs, "ascii:1000", true)
	if err != nil || len(sv.texts) != 3 {
		t.Fatalf("%d texts, %v: want three (three initialize requests)", len(sv.texts), err)
	}
	last := len(bodies) - 1
	body := strings.NewReplacer(sv.texts[0].begin, sv.texts[2].begin, sv.texts[0].end, sv.texts[2].end).Replace(string(bodies[last]))
	api, _ := fakeapi.Lookup(facts[last].API)
	bodies[last] = []byte(body)
	if ctxs[last], err = api.Context(bodies[last]); err != nil {
		t.Fatal(err)
	}
	s, _ := session(facts, bodies, ctxs, sv)
	if got := s.Pairs[len(s.Pairs)-1].Texts; got != "1 → 3" {
		t.Errorf("last pair's texts %q, want 1 → 3", got)
	}
	if want := "; the instructions of session 1 → 3 (turn 4 → 5)"; !strings.HasSuffix(s.reopenedWords(), want) {
		t.Errorf("words %q, want them to end %q", s.reopenedWords(), want)
	}
}
