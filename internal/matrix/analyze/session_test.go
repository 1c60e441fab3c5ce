package analyze

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
// turns3-reconnect -client all, 2026-12-03), the requests trimmed and the
// lab's log without bodies by testdata/sessions/trim.py: the lab lost the
// session after the first tools/call, so the second got 404. Each client's
// new sessions fall in the pair of turns whose call was lost, with what it
// sent in them; the run is ok when the client opened one, failed when not.
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
			{4, 5, nil, []string{"server/discover", "initialize", "notifications/initialized", "server/discover", "initialize", "notifications/initialized", "tools/call"}}},
			StatusOK, 3, "; 2 new sessions before turn 5, tools not listed again"},
		{"codex@0.171.0", []pair{{1, 2, nil, nil}, {2, 3, nil, []string{"initialize", "notifications/initialized", "tools/call"}}},
			StatusOK, 2, "; a new session before turn 3, tools not listed again"},
		// Lists the tools again, in the new order (the lab's second
		// listing), and offers them sorted as before.
		{"copilot@1.0.102", []pair{{1, 2, nil, nil}, {2, 3, nil, []string{"server/discover", "initialize", "notifications/initialized", "tools/list", "tools/call", "tools/list"}}},
			StatusOK, 2, "; a new session before turn 3, tools listed again"},
		// Reconnects and lists again, but does not send the call again
		// (its tools are not marked safe to replay).
		{"qwen@0.24.4", []pair{{1, 2, nil, nil}, {2, 3, nil, nil}, {3, 4, nil, nil},
			{4, 5, nil, []string{"initialize", "notifications/initialized", "tools/list", "prompts/list", "resources/list"}}},
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
			s, warns := session(facts, bodies, ctxs, toolListings(msgs), reopenings(msgs))
			if s == nil || len(warns) > 0 {
				t.Fatalf("no session: %q", warns)
			}
			var got []pair
			for _, p := range s.Pairs {
				got = append(got, pair{p.From, p.To, p.Changed, p.Reopened})
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
