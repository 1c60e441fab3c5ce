package analyze

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/lab"
)

// TestServerTextsPrints: the texts a user's server sent are named by
// length and digest as check names what it examined (fingerprint); a
// failed tools/list is an empty list, as check reads it.
func TestServerTextsPrints(t *testing.T) {
	reply := func(method, body string) LabMessage {
		return LabMessage{Dir: lab.Send, Kind: lab.KindResponse, Method: method, Body: json.RawMessage(body)}
	}
	st := serverTexts([]LabMessage{
		reply("initialize", `{"jsonrpc":"2.0","id":1,"result":{"instructions":"Use search."}}`),
		reply("tools/list", `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}`),
		reply("initialize", `{"jsonrpc":"2.0","id":3,"result":{"instructions":"a second start"}}`),
	})
	empty := fingerprint.ToolsOf(nil)
	want := ServerTexts{Instructions: map[lab.Reply]string{lab.ReplyInitialize: "Use search."},
		Prints: map[lab.Reply]fingerprint.Text{lab.ReplyInitialize: fingerprint.Of("Use search.")}, ToolsPrint: &empty}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if got, w := st.Print(), "initialize instructions 11 characters, sha256 "+fingerprint.Of("Use search.").SHA256+"; 0 tools, sha256 "+empty.SHA256; got != w {
		t.Errorf("Print() = %q, want %q", got, w)
	}
}

// TestDroppedServerStoppedByClient: Copilot CLI 1.0.102 drops a server
// whose tools/list fails and sends it SIGTERM about 80 ms later, before
// its model request in 2 of 10 runs (2026-12-03 09:10 UTC, the lab with
// -fail tools/list behind run -server): the signal follows the server's
// error reply, so it is the client stopping a server it dropped, a
// warning, and not a failure of the server (which the agreement test had
// read as "session ends"). The same signal with no error before it is a
// failure still, and so is the server ending on its own after one.
func TestDroppedServerStoppedByClient(t *testing.T) {
	msgs, _, err := ReadLabLog(filepath.Join("testdata", "lablogs", "copilot-drops-then-sigterm.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	model := time.Date(2026, 12, 3, 9, 10, 13, 173415346, time.UTC) // its one model request, after the signal
	reason, warning := serverFailure(msgs, model)
	if reason != "" || !strings.Contains(warning, "after its last reply, to tools/list, was an error") {
		t.Errorf("dropped, then stopped: reason %q, warning %q", reason, warning)
	}
	var noError []LabMessage
	for _, m := range msgs {
		if m.Kind == lab.KindError && m.Method == "tools/list" {
			m.Kind = lab.KindResponse
		}
		noError = append(noError, m)
	}
	if reason, _ := serverFailure(noError, model); !strings.Contains(reason, "signal: terminated while the client was connected") {
		t.Errorf("stopped with no error before: reason %q, want the signal as a failure", reason)
	}
	exited := slices.Clone(msgs)
	for i, m := range exited {
		if m.Kind == lab.KindExit {
			exited[i].Note = "the server ended: exit status 1 while the client was connected"
		}
	}
	if reason, _ := serverFailure(exited, model); !strings.Contains(reason, "exit status 1") {
		t.Errorf("ended on its own after an error: reason %q, want a failure", reason)
	}
}

// TestUnreadLineNotAFailure: a line the proxy's log could not read but
// passed on whole (longer than 16 MiB, or nested past 10,000 levels) is a
// warning, not the server's failure; a line that is not JSON-RPC is one.
// On main both read as "the server wrote a line that is not JSON-RPC".
func TestUnreadLineNotAFailure(t *testing.T) {
	at := time.Date(2026, 12, 5, 13, 0, 0, 0, time.UTC)
	msgs := []LabMessage{
		{Time: at, Dir: lab.Recv, Kind: lab.KindRequest, Method: "initialize"},
		{Time: at, Dir: lab.Send, Kind: lab.KindResponse, Method: "initialize"},
		{Time: at, Dir: lab.Send, Kind: lab.KindInvalid, Unread: true, Note: "line of 17825834 bytes is longer than 16777216", Raw: `{"jsonrpc":"2.0","id":3,"result":{"x":"xxx`},
	}
	if reason, warning := serverFailure(msgs, time.Time{}); reason != "" || !strings.Contains(warning, "could not read (line of 17825834 bytes is longer than 16777216)") {
		t.Errorf("an unread line: reason %q, warning %q; want a warning only", reason, warning)
	}
	msgs[2].Unread, msgs[2].Note, msgs[2].Raw = false, "not valid JSON", "Server listening"
	if reason, _ := serverFailure(msgs, time.Time{}); !strings.Contains(reason, "not JSON-RPC") {
		t.Errorf("a line that is not JSON-RPC: reason %q, want a failure", reason)
	}
}

// TestLateServerNotAFailure: a server that never answered the handshake
// before the client went on without it (Codex CLI 0.171.0 and a server
// that sleeps 4 s before it starts: testdata/lablogs/codex-late-server,
// 2026-12-05) is late, which the run measured, not a failed run: run had
// marked it FAILED, and its verdict "not measured", where Codex drops the
// server. With no model request after the client asked, it is a failure
// still.
func TestLateServerNotAFailure(t *testing.T) {
	msgs, _, err := ReadLabLog(filepath.Join("testdata", "lablogs", "codex-late-server.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	model := time.Date(2026, 12, 5, 18, 57, 15, 708183049, time.UTC) // its one model request
	if reason, warning := serverFailure(msgs, model); reason != "" || !strings.Contains(warning, "a late server, not a failure") {
		t.Errorf("late: reason %q, warning %q; want a warning only", reason, warning)
	}
	if reason, _ := serverFailure(msgs, time.Time{}); !strings.Contains(reason, "never answered the handshake") {
		t.Errorf("no model request: reason %q, want a failure", reason)
	}
}
