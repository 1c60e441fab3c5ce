package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// adversarialIDs are ids the SDK alone would answer with another id
// (through float64, or with U+FFFD), next to ordinary ones.
var adversarialIDs = []string{
	`0`, `-1`, `9007199254740992`, `9007199254740993`, `-9007199254740993`,
	`9223372036854775807`, `-9223372036854775808`, `18446744073709551616`,
	`123456789012345678901234567890`,
	`"x"`, `""`, `"\ud800"`, `"a\udc00b"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\\ud800"`,
}

// reply is what a test reads of one response line.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code int `json:"code"`
	} `json:"error"`
}

func parseReplies(t *testing.T, out string) []reply {
	t.Helper()
	var rs []reply
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		var r reply
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("reply %q: %v", line, err)
		}
		rs = append(rs, r)
	}
	return rs
}

// TestStdioAnswersExactID: every request is answered with exactly the id
// it was sent, whatever its size or escapes.
func TestStdioAnswersExactID(t *testing.T) {
	input := initialize + "\n" + initialized + "\n"
	for _, id := range adversarialIDs {
		input += `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/list"}` + "\n"
	}
	var out, logBuf bytes.Buffer
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, Log: NewMessageLog(&logBuf)})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.ServeStdio(context.Background(), strings.NewReader(input), &out); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range parseReplies(t, out.String()) {
		if r.Error != nil || r.Result == nil {
			t.Errorf("id %s: answered with an error or no result", r.ID)
		}
		got[string(r.ID)]++
	}
	want := map[string]int{"1": 1}
	for _, id := range adversarialIDs {
		want[id]++
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ids answered mismatch (-want +got):\n%s", diff)
	}
	// The log names each answer's id as sent, and the method it answers.
	for _, e := range parseLog(t, logBuf.Bytes()) {
		if e.Dir == Send && string(e.ID) != "1" && e.Method != "tools/list" {
			t.Errorf("log: answer to %s names method %q, want tools/list", e.ID, e.Method)
		}
	}
}

// TestStdioDuplicateIDInFlight: a second request with the id of one still in
// flight is answered too, and the log names each answer's method.
func TestStdioDuplicateIDInFlight(t *testing.T) {
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	var out, logBuf bytes.Buffer
	// The initialize reply is held, so the ping arrives while it is in flight.
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, InitDelay: 300 * time.Millisecond, Log: NewMessageLog(&logBuf)})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.ServeStdio(context.Background(), strings.NewReader(initialize+"\n"+ping+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	rs := parseReplies(t, out.String())
	if len(rs) != 2 {
		t.Fatalf("%d replies to two requests with id 1:\n%s", len(rs), out.String())
	}
	var kinds []string
	for _, r := range rs {
		if string(r.ID) != "1" || r.Error != nil {
			t.Errorf("reply %s %s, want id 1 and a result", r.ID, r.Result)
		}
		if bytes.Contains(r.Result, []byte("protocolVersion")) {
			kinds = append(kinds, "initialize")
		} else {
			kinds = append(kinds, "ping")
		}
	}
	var logged []string
	for _, e := range parseLog(t, logBuf.Bytes()) {
		if e.Dir == Send {
			logged = append(logged, e.Method)
		}
	}
	if diff := cmp.Diff(kinds, logged); diff != "" {
		t.Errorf("log names the answers wrongly (-sent +logged):\n%s", diff)
	}
}

// postBody posts body to the handler and returns the status and body.
func postBody(t testing.TB, url string, header map[string]string, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// TestHTTPInvalidAnsweredAsStdio: what stdio answers with -32700 or -32600,
// HTTP answers the same way (with status 400), and both logs say invalid.
func TestHTTPInvalidAnsweredAsStdio(t *testing.T) {
	for _, body := range []string{
		`[` + initialize + `]`,
		`[]`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"x\":\"\xff\"}}",
		`{not json`,
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"1.0","id":3,"method":"ping"}`,
	} {
		var out, stdioLog, httpLog bytes.Buffer
		l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, Log: NewMessageLog(&stdioLog)})
		if err != nil {
			t.Fatal(err)
		}
		if err := l.ServeStdio(context.Background(), strings.NewReader(body+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		want := parseReplies(t, out.String())

		h, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, Log: NewMessageLog(&httpLog)})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h.Handler())
		status, got := postBody(t, srv.URL, nil, body)
		srv.Close()
		if status != http.StatusBadRequest {
			t.Errorf("%.40q over HTTP: status %d, want 400", body, status)
		}
		if diff := cmp.Diff(want, parseReplies(t, got)); diff != "" {
			t.Errorf("%.40q: HTTP answer differs from stdio's (-stdio +http):\n%s", body, diff)
		}
		kinds := func(data []byte) (ks []string) {
			for _, e := range parseLog(t, data) {
				ks = append(ks, e.Dir+" "+e.Kind)
			}
			return ks
		}
		if diff := cmp.Diff(kinds(stdioLog.Bytes()), kinds(httpLog.Bytes())); diff != "" {
			t.Errorf("%.40q: HTTP log differs from stdio's (-stdio +http):\n%s", body, diff)
		}
		if k := kinds(httpLog.Bytes()); len(k) == 0 || k[0] != "recv invalid" {
			t.Errorf("%.40q: HTTP log %v, want recv invalid first", body, k)
		}
	}
}

// TestHTTPIDsExactOrRefused: over HTTP, where the SDK reads the body, an id
// it would answer differently is refused with -32600 before it sees it,
// and every answer carries exactly the id sent.
func TestHTTPIDsExactOrRefused(t *testing.T) {
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, Eras: ModeBoth})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()
	for _, id := range adversarialIDs {
		status, body := postBody(t, srv.URL, map[string]string{"Mcp-Protocol-Version": ModernVersion, "Mcp-Method": "server/discover"}, `{"jsonrpc":"2.0","id":`+id+`,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
		data := body
		if i := strings.Index(body, "data: "); i >= 0 { // an event stream
			data = strings.TrimSpace(strings.SplitN(body[i+len("data: "):], "\n", 2)[0])
		}
		rs := parseReplies(t, data)
		if len(rs) != 1 || !sameID(rs[0].ID, json.RawMessage(id)) {
			t.Errorf("id %s: status %d, answered %s", id, status, data)
			continue
		}
		if rs[0].Error != nil && rs[0].Error.Code != -32600 {
			t.Errorf("id %s: error %d, want a result or -32600", id, rs[0].Error.Code)
		}
		if rs[0].Error == nil && !sdkExactID(json.RawMessage(id)) {
			t.Errorf("id %s: answered by the SDK, which cannot echo it", id)
		}
	}
}

// TestAdmitBoundsPendingBytes: requests whose lines add up to more than
// maxPendingBytes wait for the SDK to answer earlier ones; one alone is
// always admitted.
func TestAdmitBoundsPendingBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := &stdioConn{flight: make(map[int64]pending), room: make(chan struct{}, 1), closed: make(chan struct{})}
		big := maxPendingBytes/2 + 1
		first, _, ok := c.admit(pending{id: json.RawMessage("1"), bytes: maxPendingBytes + 1})
		if !ok {
			t.Fatal("a request larger than the bound was not admitted alone")
		}
		admitted := make(chan int64, 2)
		go func() {
			for range 2 {
				id, _, _ := c.admit(pending{id: json.RawMessage("2"), bytes: big})
				admitted <- id
			}
		}()
		synctest.Wait()
		if len(admitted) != 0 {
			t.Fatal("admitted beside a request of more than maxPendingBytes")
		}
		c.answered(first)
		synctest.Wait()
		if len(admitted) != 1 {
			t.Fatalf("%d admitted after the big request was answered, want 1 (two do not fit)", len(admitted))
		}
		c.answered(<-admitted)
		synctest.Wait()
		if len(admitted) != 1 {
			t.Fatal("the second request was not admitted once the first was answered")
		}
		c.Close()
	})
}

// sameID reports whether two ids are the same JSON value: the same bytes,
// or strings (without lone surrogates, which decode to U+FFFD) that decode
// to the same text.
func sameID(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var sa, sb string
	return !loneSurrogate(a) && !loneSurrogate(b) &&
		json.Unmarshal(a, &sa) == nil && json.Unmarshal(b, &sb) == nil && sa == sb
}

// TestHTTPIdleSessionsClosed: sessions that get no request for SessionIdle
// are closed and leave the server; until then they stay.
func TestHTTPIdleSessionsClosed(t *testing.T) {
	for _, idle := range []time.Duration{time.Hour, 100 * time.Millisecond} {
		l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, SessionIdle: idle})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(l.Handler())
		const n = 20
		for range n {
			if status, body := postBody(t, srv.URL, nil, initialize); status != http.StatusOK {
				t.Fatalf("initialize: %d %s", status, body)
			}
		}
		count := func() int {
			c := 0
			for range l.Server().Sessions() {
				c++
			}
			return c
		}
		if idle == time.Hour {
			if got := count(); got != n {
				t.Errorf("%d sessions open after %d initializes with an hour's idle limit", got, n)
			}
		} else {
			deadline := time.Now().Add(30 * time.Second) // a bound, not a timing: the sessions go after 100ms
			for count() > 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if got := count(); got != 0 {
				t.Errorf("%d of %d idle sessions still open", got, n)
			}
		}
		srv.Close()
	}
}

// TestHTTPSlowBodyCut: a client that sends its body slowly loses the
// connection after BodyTimeout instead of holding it.
func TestHTTPSlowBodyCut(t *testing.T) {
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, BodyTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", len(initialize), initialize[:10])
	conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // a bound for the test, far beyond BodyTimeout
	resp, err := io.ReadAll(conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("the server still waits for the body after 30s; read %q", resp)
	}
	if len(resp) > 0 && !bytes.Contains(resp, []byte("400")) {
		t.Errorf("server answered %q, want 400 or a closed connection", resp)
	}
}

// TestAcceptCountsHeldMemory: a request in flight counts for the memory the
// SDK holds for it, heldPerByte times its line, not its line alone.
func TestAcceptCountsHeldMemory(t *testing.T) {
	l, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	c := &stdioConn{lab: l, flight: make(map[int64]pending), room: make(chan struct{}, 1), closed: make(chan struct{})}
	line := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"` + strings.Repeat("x", 1000) + `"}}`)
	if c.accept(line, len(line), classify(line)) == nil {
		t.Fatal("the request was not passed on")
	}
	if got, want := c.pendingBytes, heldPerByte*len(line); got != want {
		t.Errorf("pendingBytes = %d, want %d", got, want)
	}
	// The same request read in a batch of plain lines.
	c.incoming = make(chan inMsg, 1)
	var b inBatch
	if !c.plain(&b, line, len(line), classify(line)) || !c.passOn(&b) || len(c.incoming) != 1 {
		t.Fatal("the request was not passed on in a batch")
	}
	if got, want := c.pendingBytes, 2*heldPerByte*len(line); got != want {
		t.Errorf("pendingBytes = %d, want %d", got, want)
	}
}
