package surface

import (
	"testing"

	"github.com/instrlab/instrlab/internal/fakeapi"
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
