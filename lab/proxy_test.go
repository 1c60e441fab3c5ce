package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestProxyRelayUnchanged: every byte passes through as it came, in both
// directions, and every line is logged with the direction it went.
func TestProxyRelayUnchanged(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"_meta":{"k":"v"}}}`,
		"{\"jsonrpc\": \"2.0\", \"id\": \"a\",  \"method\":\"tools/list\"}\r",
		"",
		"   ",
		"not json at all",
		"\xff\xfe invalid utf-8",
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":7,"result":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`, // last, without a newline
	}, "\n")
	for _, dir := range []string{Recv, Send} {
		var logBuf, out bytes.Buffer
		p := NewProxy(NewMessageLog(&logBuf))
		if err := p.Relay(dir, strings.NewReader(in), &out); err != nil {
			t.Fatal(err)
		}
		if out.String() != in {
			t.Errorf("%s: bytes changed:\n got %q\nwant %q", dir, out.String(), in)
		}
		entries := parseLog(t, logBuf.Bytes())
		var kinds []string
		for _, e := range entries {
			if e.Dir != dir {
				t.Errorf("entry %+v: dir %q, want %q", e, e.Dir, dir)
			}
			kinds = append(kinds, e.Kind+":"+e.Method)
		}
		want := []string{"request:initialize", "request:tools/list", "empty:", "empty:", "invalid:", "invalid:",
			"notification:notifications/initialized", "response:", "request:ping"}
		if diff := cmp.Diff(want, kinds); diff != "" {
			t.Errorf("%s: logged kinds mismatch (-want +got):\n%s", dir, diff)
		}
		if string(entries[0].Meta) != `{"k":"v"}` || entries[1].Bytes != len(`{"jsonrpc": "2.0", "id": "a",  "method":"tools/list"}`) {
			t.Errorf("%s: meta %s, bytes %d", dir, entries[0].Meta, entries[1].Bytes)
		}
		if dir == Send && !strings.Contains(entries[4].Note, "the server wrote a line that is not JSON-RPC") {
			t.Errorf("garbage from the server: note %q", entries[4].Note)
		}
	}
}

// TestProxyLongLine: a line longer than maxLineLength passes whole, and the
// log keeps its start.
func TestProxyLongLine(t *testing.T) {
	in := `{"jsonrpc":"2.0","id":1,"method":"x","params":{"p":"` + strings.Repeat("a", maxLineLength) + "\"}}\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"
	var logBuf, out bytes.Buffer
	p := NewProxy(NewMessageLog(&logBuf))
	if err := p.Relay(Recv, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != in {
		t.Fatalf("bytes changed: %d bytes out, %d in", out.Len(), len(in))
	}
	entries := parseLog(t, logBuf.Bytes())
	if len(entries) != 2 || entries[0].Kind != KindInvalid || entries[0].Bytes != len(in)-len(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)-2 || entries[1].Method != "ping" {
		t.Errorf("entries: %d, first %s %d bytes", len(entries), entries[0].Kind, entries[0].Bytes)
	}
}

// TestProxyKeepsTextReplies: replies to the methods that carry a server's
// texts are logged whole and named by the method they answer, and so are
// tool calls both ways (labvocab.CallMethods); others are not kept.
func TestProxyKeepsTextReplies(t *testing.T) {
	var logBuf bytes.Buffer
	p := NewProxy(NewMessageLog(&logBuf))
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}`
	client := `{"jsonrpc":"2.0","id":1,"method":"initialize"}` + "\n" + call + "\n" + `{"jsonrpc":"2.0","id":3,"method":"prompts/list"}` + "\n" +
		`{"jsonrpc":"2.0","id":4,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":5,"method":"tools/call"}` + "\n" +
		`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"lab://r"}}` + "\n"
	server := `{"jsonrpc":"2.0","id":1,"result":{"instructions":"hello"}}` + "\n" + `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}` + "\n" + `{"jsonrpc":"2.0","id":4,"result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"broke"}}` + "\n" +
		`{"jsonrpc":"2.0","id":6,"result":{"contents":[{"uri":"lab://r","text":"read me"}]}}` + "\n"
	p.Relay(Recv, strings.NewReader(client), io.Discard)
	p.Relay(Send, strings.NewReader(server), io.Discard)
	type got struct {
		Dir, Method, Body string
		Error             int
	}
	var gots []got
	for _, e := range parseLog(t, logBuf.Bytes()) {
		g := got{Dir: e.Dir, Method: e.Method, Body: string(e.Body)}
		if e.Error != nil {
			g.Error = *e.Error
		}
		gots = append(gots, g)
	}
	want := []got{
		{Recv, "initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, 0}, // the handshake's shape
		{Recv, "tools/call", call, 0}, {Recv, "prompts/list", "", 0}, {Recv, "ping", "", 0},
		{Recv, "tools/call", `{"jsonrpc":"2.0","id":5,"method":"tools/call"}`, 0},
		{Recv, "resources/read", `{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"lab://r"}}`, 0},
		{Send, "initialize", `{"jsonrpc":"2.0","id":1,"result":{"instructions":"hello"}}`, 0},
		{Send, "tools/call", `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`, 0},
		{Send, "prompts/list", "", -32601}, {Send, "ping", "", 0},
		{Send, "tools/call", `{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"broke"}}`, -32603},
		{Send, "resources/read", `{"jsonrpc":"2.0","id":6,"result":{"contents":[{"uri":"lab://r","text":"read me"}]}}`, 0},
	}
	if diff := cmp.Diff(want, gots); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestProxyHTTP: a go-sdk client through the HTTP proxy to a lab sees the
// lab's texts, and the proxy's log names the same messages, in the same
// order, as the lab's own.
func TestProxyHTTP(t *testing.T) {
	for _, era := range []Mode{ModeLegacy, ModeBoth} {
		t.Run(string(era), func(t *testing.T) {
			var labLog, proxyLog bytes.Buffer
			instr, _ := ParseInstructions("ascii:600")
			l, err := New(Config{Eras: era, Instructions: instr, Log: NewMessageLog(&labLog)})
			if err != nil {
				t.Fatal(err)
			}
			upstream := httptest.NewServer(l.Handler())
			defer upstream.Close()
			h, err := NewProxy(NewMessageLog(&proxyLog)).HTTPHandler(upstream.URL)
			if err != nil {
				t.Fatal(err)
			}
			front := httptest.NewServer(h)
			defer front.Close()
			ctx := context.Background()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: front.URL}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.ListTools(ctx, nil); err != nil {
				t.Fatal(err)
			}
			init, discover := l.Texts()
			got := cs.InitializeResult().Instructions
			if got != init.Text && got != discover.Text {
				t.Errorf("instructions through the proxy: %q, want the lab's", got)
			}
			cs.Close()
			sequence := func(data []byte) []string {
				var s []string
				for _, e := range parseLog(t, data) {
					if e.Dir == Recv || e.Dir == Send {
						s = append(s, e.Dir+" "+e.Kind+" "+e.Method+" "+string(e.ID))
					}
				}
				return s
			}
			if diff := cmp.Diff(sequence(labLog.Bytes()), sequence(proxyLog.Bytes())); diff != "" {
				t.Errorf("proxy log differs from the lab's (-lab +proxy):\n%s", diff)
			}
			var kept bool
			for _, e := range parseLog(t, proxyLog.Bytes()) {
				if (e.Method == "initialize" || e.Method == "server/discover") && e.Dir == Send {
					var r struct {
						Result struct{ Instructions string } `json:"result"`
					}
					kept = json.Unmarshal(e.Body, &r) == nil && r.Result.Instructions == got
				}
			}
			if !kept {
				t.Error("the initialize reply is not kept whole in the proxy's log")
			}
		})
	}
}

// TestProxyHTTPRefusesOrigin: a non-loopback Origin gets 403 and reaches
// no server.
func TestProxyHTTPRefusesOrigin(t *testing.T) {
	reached := false
	upstream := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
	defer upstream.Close()
	h, _ := NewProxy(nil).HTTPHandler(upstream.URL)
	req := httptest.NewRequest("POST", "/mcp", strings.NewReader(`{}`))
	req.Header.Set("Origin", "https://evil.example")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden || reached {
		t.Errorf("status %d, upstream reached %v; want 403, false", rec.Code, reached)
	}
}

// TestProxyHTTPUnreachable: an upstream that cannot be reached gets 502 and
// a failure entry; the upstream's URL (and the secret in it) is in neither.
func TestProxyHTTPUnreachable(t *testing.T) {
	dead := httptest.NewServer(http.NotFoundHandler())
	url := dead.URL + "/mcp?token=SECRET123"
	dead.Close()
	var logBuf bytes.Buffer
	h, _ := NewProxy(NewMessageLog(&logBuf)).HTTPHandler(url)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Host = "127.0.0.1:8080"
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusBadGateway {
		t.Errorf("status %d, want 502", rec.Code)
	}
	entries := parseLog(t, logBuf.Bytes())
	if n := len(entries); n != 2 || entries[1].Kind != KindFailure || entries[1].Dir != ServerDir {
		t.Fatalf("entries: %+v", entries)
	}
	if strings.Contains(logBuf.String()+rec.Body.String(), "SECRET123") {
		t.Error("the upstream's secret reached the log or the answer")
	}
}

// TestClassifyNullIDError: an error whose id is null (one the server
// could not tie to a request: the lab's own answer to a line it cannot
// read, server-everything's HTTP 400) is an error reply, not a line that
// is not JSON-RPC; a result with a null id still is not one.
func TestClassifyNullIDError(t *testing.T) {
	for line, want := range map[string]string{
		`{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`: KindError,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not valid JSON"}}`:                            KindError,
		`{"jsonrpc":"2.0","id":null,"result":{}}`:                                                                   KindInvalid,
		`{"jsonrpc":"2.0","error":{"code":-32000,"message":"no id"}}`:                                               KindInvalid,
	} {
		if got := classify([]byte(line)).kind; got != want {
			t.Errorf("classify(%s) = %s, want %s", line, got, want)
		}
	}
}

// TestProxyHold: with Hold, the server's first reply that completes the
// handshake (here its initialize result, after an error to
// server/discover) is logged and passed on Hold later; what came before it
// is not held, nor a second initialize result.
func TestProxyHold(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logBuf bytes.Buffer
		p := NewProxy(NewMessageLog(&logBuf))
		p.Hold = 8 * time.Second
		requests := `{"jsonrpc":"2.0","id":1,"method":"server/discover"}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{}}` + "\n" +
			`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{}}` + "\n"
		if err := p.Relay(Recv, strings.NewReader(requests), io.Discard); err != nil {
			t.Fatal(err)
		}
		replies := []string{
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`,
			`{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25"}}`,
			`{"jsonrpc":"2.0","id":3,"result":{"protocolVersion":"2025-11-25"}}`,
		}
		r, w := io.Pipe()
		out := &timedWriter{start: time.Now()}
		done := make(chan error)
		go func() { done <- p.Relay(Send, r, out) }()
		for _, line := range replies {
			io.WriteString(w, line+"\n")
		}
		w.Close()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if want := []time.Duration{0, 8 * time.Second, 8 * time.Second}; !slices.Equal(out.at, want) {
			t.Errorf("replies passed on at %v, want %v", out.at, want)
		}
		if out.String() != strings.Join(replies, "\n")+"\n" {
			t.Errorf("bytes changed: %q", out.String())
		}
		entries := parseLog(t, logBuf.Bytes())
		if n := len(entries); n != 6 || entries[4].Time.Sub(entries[3].Time) != 8*time.Second || !entries[5].Time.Equal(entries[4].Time) {
			t.Errorf("the log does not time the held reply 8 s after the one before it: %+v", entries)
		}
	})
}

// timedWriter keeps what is written and when, since start.
type timedWriter struct {
	bytes.Buffer
	start time.Time
	at    []time.Duration
}

func (w *timedWriter) Write(p []byte) (int, error) {
	w.at = append(w.at, time.Since(w.start))
	return w.Buffer.Write(p)
}

// TestProxyUnreadLines: a valid reply nested past MaxDepth, and one
// longer than maxLineLength, are passed on whole and logged as unread,
// not as a server writing what is not JSON-RPC.
func TestProxyUnreadLines(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":1,"result":{"x":` + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + "}}\n"
	long := `{"jsonrpc":"2.0","id":2,"result":{"x":"` + strings.Repeat("a", maxLineLength) + "\"}}\n"
	var logBuf, out bytes.Buffer
	p := NewProxy(NewMessageLog(&logBuf))
	if err := p.Relay(Send, strings.NewReader(deep+long), &out); err != nil {
		t.Fatal(err)
	}
	if out.String() != deep+long {
		t.Fatalf("bytes changed: %d out, %d in", out.Len(), len(deep+long))
	}
	entries := parseLog(t, logBuf.Bytes())
	if len(entries) != 2 {
		t.Fatalf("%d entries, want 2", len(entries))
	}
	for i, want := range []string{"nested deeper than 10000 levels", "is longer than 16777216"} {
		e := entries[i]
		if e.Kind != KindInvalid || !e.Unread || !strings.Contains(e.Note, want) || strings.Contains(e.Note, "not JSON-RPC") {
			t.Errorf("entry %d: %s unread=%v %q; want unread, saying %q", i, e.Kind, e.Unread, e.Note, want)
		}
	}
	if Deeper([]byte(`[{"a":"[[[[[\"["},[]]`), 3) || !Deeper([]byte(`[[[[]]]]`), 3) {
		t.Error("Deeper counts brackets inside strings, or misses four levels")
	}
}
