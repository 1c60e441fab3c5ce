package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// TestSessionsWithFakeClient runs the sessions rows through the fake
// client in three turns, in the ways it can keep or change its requests,
// and checks what the analysis makes of each: by default each turn's
// message goes before the system message, which so moves (the prefix is
// not stable from messages[1] on); with FAKE_HISTORY=append each request
// repeats the one before (stable). The rotate row's lab lists its tools in
// a new order, which the fake keeps, or sorts with FAKE_TOOL_ORDER=sort.
func TestSessionsWithFakeClient(t *testing.T) {
	type pair struct {
		Stable              bool
		Changed             []string
		Instructions, Tools string
	}
	type want struct {
		turns     int
		pairs     []pair
		toolOrder string
		line      string
	}
	moved := pair{Changed: []string{"messages[1]"}, Instructions: "moved: messages[1].content → messages[2].content", Tools: "same"}
	sameMsgs := pair{Changed: []string{"messages[1]"}, Instructions: "same place", Tools: "same"}
	stable := pair{Stable: true, Instructions: "same place", Tools: "same"}
	for _, tt := range []struct {
		name, row string
		env       map[string]string
		want      want
	}{
		{"moves", "turns3-rotate", map[string]string{"FAKE_TURNS": "3"},
			want{3, []pair{moved, sameMsgs}, analyze.ToolOrderServer, "no: messages[1] (turn 1 → 2, "}},
		{"appends, sorts", "turns3-rotate", map[string]string{"FAKE_TURNS": "3", "FAKE_HISTORY": "append", "FAKE_TOOL_ORDER": "sort"},
			want{3, []pair{stable, stable}, analyze.ToolOrderName, "yes (3 turns); lab's tools sorted by name"}},
		{"name order", "turns3", map[string]string{"FAKE_TURNS": "3", "FAKE_HISTORY": "append"},
			want{3, []pair{stable, stable}, "", "yes (3 turns)"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := matrix.Sessions()
			if err := m.Select([]string{tt.row}, 1); err != nil {
				t.Fatal(err)
			}
			results, st, err := newRunner(t, m, fakeClient("1", tt.env)).Run(context.Background())
			if err != nil || st.Failed != 0 || len(results) != 1 {
				t.Fatalf("%v, stats %+v, %d results", err, st, len(results))
			}
			s := results[0].Session
			if s == nil {
				t.Fatalf("no session; requests %d, warnings %q", len(results[0].Requests), results[0].Warnings)
			}
			var pairs []pair
			for _, p := range s.Pairs {
				pairs = append(pairs, pair{p.Stable, p.Changed, p.Instructions, p.Tools})
				// Bytes: all of the earlier prefix repeated when stable,
				// less when not.
				if p.Of == 0 || (p.Same == p.Of) != p.Stable {
					t.Errorf("turn %d → %d: %d of %d bytes the same, stable %v", p.From, p.To, p.Same, p.Of, p.Stable)
				}
			}
			if diff := cmp.Diff(tt.want.pairs, pairs); diff != "" {
				t.Errorf("pairs mismatch (-want +got):\n%s", diff)
			}
			if len(s.Turns) != tt.want.turns || s.ToolOrder != tt.want.toolOrder || !strings.HasPrefix(s.Line(), tt.want.line) {
				t.Errorf("turns %v, tool order %q, line %q; want %d turns, %q, %q", s.Turns, s.ToolOrder, s.Line(), tt.want.turns, tt.want.toolOrder, tt.want.line)
			}
			if tt.row == "turns3-rotate" {
				// The lab's one listing, rotated once: its first tool last.
				want := [][]string{{"list_bins", "lookup_part", "tool_0004", "tool_0005", "tool_0006", "lab_ping"}}
				if diff := cmp.Diff(want, s.Listings); diff != "" {
					t.Errorf("listings mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestSessionsReconnectFakeClient runs the reconnect row through the fake
// client, which calls list_bins after each turn but the last: the lab
// answers the first call and loses the session, the second gets 404. A
// client that opens a new session (FAKE_REOPEN) lists the tools again
// (the lab's second listing, rotated again) and takes the new session's
// text (its own codewords): the pair across says the new session, the
// text of session 2 and the tools' new order, and the run is ok. One that
// does not fails the run, saying so.
func TestSessionsReconnectFakeClient(t *testing.T) {
	for _, tt := range []struct {
		name     string
		reopen   string
		status   string
		reopened []string
		texts    string
		changed  []string
	}{
		{"reopens", "1", analyze.StatusOK, []string{"initialize", "tools/call", "tools/list"}, "1 → 2", []string{"tool order", "messages[1]"}},
		{"does not", "", analyze.StatusFailed, nil, "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := matrix.Sessions()
			if err := m.Select([]string{"turns3-reconnect"}, 1); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"FAKE_TURNS": "3", "FAKE_HISTORY": "append", "FAKE_CALL": "list_bins", "FAKE_REOPEN": tt.reopen}
			results, _, err := newRunner(t, m, fakeClient("1", env)).Run(context.Background())
			if err != nil || len(results) != 1 {
				t.Fatalf("%v, %d results", err, len(results))
			}
			res := results[0]
			if res.Status != tt.status || (tt.status == analyze.StatusFailed) != strings.Contains(res.Reason, "the client sent nothing after") {
				t.Errorf("status %s (%s), want %s", res.Status, res.Reason, tt.status)
			}
			s := res.Session
			if s == nil || len(s.Pairs) != 2 {
				t.Fatalf("session %+v: want three turns", s)
			}
			if p := s.Pairs[0]; p.Reopened != nil || p.Texts != "" || !p.Stable {
				t.Errorf("turn 1 → 2: reopened %q, texts %q, changed %q: want nothing", p.Reopened, p.Texts, p.Changed)
			}
			p := s.Pairs[1]
			if diff := cmp.Diff(tt.reopened, p.Reopened); diff != "" {
				t.Errorf("turn 2 → 3: reopened mismatch (-want +got):\n%s", diff)
			}
			if p.Texts != tt.texts || !cmp.Equal(tt.changed, p.Changed) {
				t.Errorf("turn 2 → 3: texts %q, changed %q; want %q, %q", p.Texts, p.Changed, tt.texts, tt.changed)
			}
		})
	}
}
