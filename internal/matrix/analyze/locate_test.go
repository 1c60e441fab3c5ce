package analyze

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/lab"
)

func TestLocate(t *testing.T) {
	text := "BEGIN codeword: HERON-4821. abc [at 30] 部品 END codeword: OSPREY-3094."
	cut := string([]rune(text)[:35])
	ctx := fakeapi.Context{
		{Kind: fakeapi.KindSystem, Path: "system", Text: "no text here"},
		{Kind: fakeapi.KindSystemMessage, Path: "m1", Text: "# MCP Server Instructions\n\nintro\n\n## lab\n" + text + "\n\nmore"},
		{Kind: fakeapi.KindUserTurn, Path: "m2", Text: "<system-reminder>\n## lab\n" + cut + "… [truncated]\n</system-reminder>"},
		{Kind: fakeapi.KindToolDefinition, Path: "t0", Text: text},
	}
	got := locate(ctx, "initialize", text)
	want := []Placement{
		{Kind: fakeapi.KindSystemMessage, Path: "m1", Reply: "initialize", Kept: 69, Full: true, Suffix: "\n\nmore", Wrapper: "# MCP Server Instructions … ## lab", Offset: 41},
		{Kind: fakeapi.KindUserTurn, Path: "m2", Reply: "initialize", Kept: 35, Suffix: "… [truncated]\n</syst", Wrapper: "<system-reminder> … ## lab", Offset: 25},
		{Kind: fakeapi.KindToolDefinition, Path: "t0", Reply: "initialize", Kept: 69, Full: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("locate mismatch (-want +got):\n%s", diff)
	}
	if got := locate(ctx, "discover", "BEGIN codeword: OTHER-0001. x"); got != nil {
		t.Errorf("found a text that is not there: %+v", got)
	}
	if got := locate(ctx, "initialize", ""); got != nil {
		t.Errorf("found an empty text: %+v", got)
	}
}

func TestNormalize(t *testing.T) {
	a := `{"metadata":{"user_id":"1"},"messages":[{"content":"cwd /out/r/1/work -out-r-1-work toolu_01ABC msg_9 at 127.0.0.1:4242 id 0f0e1f4c-1d5e-4ad0-9a5d-2b1f3c4d5e6f dev ` + strings.Repeat("a1", 32) + `"}]}`
	b := `{"metadata":{"user_id":"2"},"messages":[{"content":"cwd /out/r/2/work -out-r-2-work toolu_02XYZ msg_7 at 127.0.0.1:5151 id 11111111-2222-3333-4444-555555555555 dev ` + strings.Repeat("b2", 32) + `"}]}`
	na := string(Normalize([]byte(a), []string{"/out/r/1", escapedPath("/out/r/1")}))
	nb := string(Normalize([]byte(b), []string{"/out/r/2", escapedPath("/out/r/2")}))
	if na != nb {
		t.Errorf("normalised bodies differ:\n%s\n%s", na, nb)
	}
	want := `{"messages":[{"content":"cwd $RUN/work $RUN-work toolu_<id> msg_<id> at 127.0.0.1:<port> id <uuid> dev <hex>"}]}`
	if na != want {
		t.Errorf("Normalize = %s\nwant        %s", na, want)
	}
	if requestKey([]byte(a), []string{"/out/r/1"}) == requestKey([]byte(`{"messages":[]}`), nil) {
		t.Error("different requests share a key")
	}
}

func TestHandshake(t *testing.T) {
	code := -32601
	msgs := []LabMessage{
		{Time: at(0), Dir: "recv", Method: "server/discover", ID: []byte(`"server-discover-probe-1"`), Meta: []byte(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`)},
		{Time: at(1), Dir: "send", Method: "server/discover", ID: []byte(`"server-discover-probe-1"`), Error: &code},
		{Time: at(3050), Dir: "recv", Method: "initialize", ID: []byte(`0`)},
		{Time: at(3051), Dir: "send", Method: "initialize", ID: []byte(`0`)},
		{Time: at(3052), Dir: "recv", Method: "notifications/initialized"},
		{Time: at(3053), Dir: "recv", Method: "tools/list", ID: []byte(`1`)},
	}
	ms := 3050.0
	want := Handshake{Methods: []string{"server/discover", "initialize", "notifications/initialized", "tools/list"},
		DiscoverAnswer: "error -32601", ProbeToFallbackMS: &ms, InitializeSent: true, Ready: at(3051), ProtocolVersions: []string{"2026-07-28"}}
	if diff := cmp.Diff(want, handshake(msgs)); diff != "" {
		t.Errorf("handshake mismatch (-want +got):\n%s", diff)
	}
	silent := handshake(msgs[:1])
	if silent.DiscoverAnswer != "none" || silent.InitializeSent || silent.ProbeToFallbackMS != nil {
		t.Errorf("unanswered probe: %+v", silent)
	}
}

// TestHandshakeGivenUp: a reply to an initialize the client cancelled
// first (Continue CLI 1.5.47 at its 60 s timeout, then again with a second
// server process) completes no handshake; one the client still waits for
// does, and a cancel of a request after the handshake changes nothing.
func TestHandshakeGivenUp(t *testing.T) {
	init := func(ms int, dir string) LabMessage {
		return LabMessage{Time: at(ms), Dir: dir, Method: "initialize", ID: []byte(`0`)}
	}
	cancel := func(ms int) LabMessage {
		return LabMessage{Time: at(ms), Dir: "recv", Method: "notifications/cancelled"}
	}
	gaveUp := []LabMessage{init(10, "recv"), cancel(60010), init(60011, "send"), init(60060, "recv"), cancel(120060), init(120061, "send")}
	if h := handshake(gaveUp); !h.Ready.IsZero() || !h.GaveUp.Equal(at(60010)) {
		t.Errorf("replies to cancelled initializes: ready %v (want none), gave up %v (want %v)", h.Ready, h.GaveUp, at(60010))
	}
	retried := append(gaveUp[:3:3], init(60060, "recv"), init(60070, "send"))
	if h := handshake(retried); !h.Ready.Equal(at(60070)) {
		t.Errorf("a retry answered in time: ready %v, want %v", h.Ready, at(60070))
	}
	crossed := []LabMessage{init(10, "recv"), init(2000, "send"), cancel(2001)}
	if h := handshake(crossed); !h.Ready.Equal(at(2000)) || !h.GaveUp.Equal(at(2001)) {
		t.Errorf("a reply and a cancel that crossed: ready %v (want %v), gave up %v (want %v)", h.Ready, at(2000), h.GaveUp, at(2001))
	}
	after := []LabMessage{init(10, "recv"), init(20, "send"), {Time: at(30), Dir: "recv", Method: "tools/call", ID: []byte(`1`)}, cancel(40)}
	if h := handshake(after); !h.Ready.Equal(at(20)) || !h.GaveUp.IsZero() {
		t.Errorf("a cancel after the handshake: ready %v (want %v), gave up %v (want none)", h.Ready, at(20), h.GaveUp)
	}
}

func at(ms int) time.Time {
	return time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC).Add(time.Duration(ms) * time.Millisecond)
}

// TestLocateIndented: a text whose every line the client indented (opencode
// 1.18.33 puts a server's instructions four spaces in, inside its <server>
// tag, a blank line as the indent alone) is whole, with the indent named;
// a text cut in its second line is cut there; a line of the text with an
// indent of its own, sent unindented by a client that indents nothing,
// still matches, and no indent is reported where none was taken.
func TestLocateIndented(t *testing.T) {
	text := "Use this server for docs. Prefer it.\n\nDo not use for: refactoring.\n  - nor this"
	// server-everything's: a heading first, and its first ". " lines later.
	heading := "# Everything\n\nAudience: agents.\nFollow them."
	if ps := locate(fakeapi.Context{{Kind: fakeapi.KindSystem, Text: "<server>\n    # Everything\n    \n    Audience: agents.\n    Follow them.\n</server>"}}, lab.ReplyInitialize, heading); len(ps) != 1 || !ps[0].Full || ps[0].Indent != "    " {
		t.Errorf("a text whose first sentence spans lines, indented: %+v", ps)
	}
	seg := func(s string) fakeapi.Context {
		return fakeapi.Context{{Kind: fakeapi.KindSystem, Path: "messages[0].content", Text: s}}
	}
	for _, tc := range []struct {
		name, got, indent string
		kept              int
	}{
		{"indented", "<server name=\"c7\">\n    Use this server for docs. Prefer it.\n    \n    Do not use for: refactoring.\n      - nor this\n  </server>", "    ", 79},
		{"cut in the second paragraph", "<server>\n    Use this server for docs. Prefer it.\n    \n    Do not use", "    ", 48},
		{"not indented", "<server>\n    Use this server for docs. Prefer it.\n\nDo not use for: refactoring.\n  - nor this", "", 79},
		{"on a line of its own, no indent", "## c7\nUse this server for docs. Prefer it.\n\nDo not use for: refactoring.\n  - nor this", "", 79},
		{"after other text", "Server says: Use this server for docs. Prefer it.\n    \n    Do not", "", 37},
	} {
		ps := locate(seg(tc.got), lab.ReplyInitialize, text)
		if len(ps) != 1 {
			t.Fatalf("%s: %d placements", tc.name, len(ps))
		}
		p := ps[0]
		if p.Kept != tc.kept || p.Full != (tc.kept == len(text)) || p.Indent != tc.indent {
			t.Errorf("%s: kept %d full %v indent %q, want %d, %q", tc.name, p.Kept, p.Full, p.Indent, tc.kept, tc.indent)
		}
	}
}
