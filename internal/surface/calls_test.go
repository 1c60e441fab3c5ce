package surface

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// TestEchoedIDAfterHistory: a client that gives the fake's tool calls ids
// of its own (Droid under a Gemini model) repeats earlier calls of the
// same tool first; the call of this reply is the one after them, and a
// client that kept the fake's ids has none.
func TestEchoedIDAfterHistory(t *testing.T) {
	call := func(name, id string) fakeapi.Segment {
		return fakeapi.Segment{Kind: fakeapi.KindAssistantTurn, Name: name, Call: id}
	}
	first := fakeapi.ToolCall{Tool: "ping", Name: "lab_ping", ID: "toolu_fake0003"}
	second := fakeapi.ToolCall{Tool: "ping", Name: "lab_ping", ID: "toolu_fake0003c1"}
	r := Request{Request: fakeapi.Request{Seq: 3, Calls: []fakeapi.ToolCall{first, second}},
		Context: fakeapi.Context{call("lab_ping", "call_old_1")}}
	later := []Request{{Request: fakeapi.Request{Seq: 4},
		Context: fakeapi.Context{call("lab_ping", "call_old_1"), call("lab_echo", "call_x"), call("lab_ping", "call_new_2"), call("lab_ping", "call_new_3")}}}
	for _, tc := range []struct {
		c    fakeapi.ToolCall
		want string
	}{{first, "call_new_2"}, {second, "call_new_3"}} {
		if got := echoedID(r, later, tc.c); got != tc.want {
			t.Errorf("echoedID(%s) = %q, want %q", tc.c.ID, got, tc.want)
		}
	}
	kept := []Request{{Context: fakeapi.Context{call("lab_ping", "call_old_1"), call("lab_ping", first.ID), call("lab_ping", second.ID)}}}
	if got := echoedID(r, kept, first); got != "" {
		t.Errorf("echoedID with the fake's ids kept = %q, want none", got)
	}
}

// TestGaveUp: a call the client cancelled before the server answered
// says when (from the server's receipt), with the reason, and when the
// request with its result came; a call answered first, or a cancel of
// another request, or one the log kept no body of, says nothing.
func TestGaveUp(t *testing.T) {
	t0 := time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	call := lab.Entry{Time: t0, Dir: lab.Recv, Kind: lab.KindRequest, Method: "tools/call", ID: json.RawMessage(`5`),
		Body: json.RawMessage(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"bad_hang"}}`)}
	cancel := func(id string, ms int) lab.Entry {
		return lab.Entry{Time: at(ms), Dir: lab.Recv, Kind: lab.KindNotification, Method: labvocab.Cancelled,
			Body: json.RawMessage(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"Request timed out"}}`)}
	}
	answer := func(ms int) lab.Entry {
		return lab.Entry{Time: at(ms), Dir: lab.Send, Kind: lab.KindResponse, Method: "tools/call", ID: json.RawMessage(`5`),
			Body: json.RawMessage(`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"late"}]}}`)}
	}
	tc := fakeapi.ToolCall{Tool: "bad_hang", Name: "mcp__lab__bad_hang", ID: "toolu_1"}
	reqs := func(ms int) []Request {
		return []Request{{Request: fakeapi.Request{Seq: 1, Time: at(-500), Calls: []fakeapi.ToolCall{tc}}},
			{Request: fakeapi.Request{Seq: 2, Time: at(ms)}, Context: fakeapi.Context{{Kind: fakeapi.KindToolResult, Call: "toolu_1", Text: "MCP error -32001: Request timed out"}}}}
	}
	ms := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		name string
		log  []lab.Entry
		req  int
		want *GaveUp
	}{
		{"cancelled, then answered", []lab.Entry{call, cancel("5", 60000), answer(60002)}, 60010,
			&GaveUp{CancelMS: ms(60000), Reason: "Request timed out", ResultMS: ms(60010), AnswerMS: ms(60002)}},
		{"no cancel, no answer", []lab.Entry{call}, 30000, &GaveUp{ResultMS: ms(30000)}},
		{"answered first", []lab.Entry{call, answer(1000), cancel("5", 2000)}, 1010, nil},
		{"another request cancelled", []lab.Entry{call, cancel("6", 500), answer(1000)}, 1010, nil},
		{"a cancel without a body", []lab.Entry{call, {Time: at(500), Dir: lab.Recv, Kind: lab.KindNotification, Method: labvocab.Cancelled}, answer(1000)}, 1010, nil},
	} {
		calls := Calls(reqs(c.req), c.log)
		if len(calls) != 1 {
			t.Fatalf("%s: %d calls, want 1", c.name, len(calls))
		}
		if diff := cmp.Diff(c.want, calls[0].GaveUp); diff != "" {
			t.Errorf("%s: GaveUp (-want +got):\n%s", c.name, diff)
		}
	}
	if got := (GaveUp{CancelMS: ms(60000), ResultMS: ms(59000)}).AfterMS(); got != 59000 {
		t.Errorf("AfterMS = %v, want the earlier, 59000", got)
	}
}
