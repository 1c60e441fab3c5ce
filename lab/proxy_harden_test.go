package lab

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// proxyExchange sends body through an HTTP proxy to upstream and returns
// the status, the answer and the proxy's log.
func proxyExchange(t *testing.T, upstream http.Handler, host, body string) (int, string, []Entry) {
	t.Helper()
	up := httptest.NewServer(upstream)
	defer up.Close()
	var logBuf bytes.Buffer
	p := NewProxy(NewMessageLog(&logBuf))
	p.UpstreamHeader = http.Header{"Authorization": {"Bearer config-secret"}}
	h, err := p.HTTPHandler(up.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(h)
	defer front.Close()
	req, _ := http.NewRequest("POST", front.URL+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(answer), parseLog(t, logBuf.Bytes())
}

const ping = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`

func sentMessages(entries []Entry) []string {
	var out []string
	for _, e := range entries {
		if e.Dir == Send {
			out = append(out, fmt.Sprintf("%s %s %d", e.Kind, e.Method, e.Bytes))
		}
	}
	return out
}

// TestProxyHTTPSSELineEnds: SSE answers whose lines end in CRLF (the
// default of Python's sse-starlette) or CR are logged event by event, as
// those ending in LF are.
func TestProxyHTTPSSELineEnds(t *testing.T) {
	reply := `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`
	note := `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`
	for name, eol := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		t.Run(name, func(t *testing.T) {
			stream := "event: message" + eol + "data: " + note + eol + eol + ": ping" + eol + eol + "id: 7" + eol + "data: " + reply + eol + eol
			_, answer, entries := proxyExchange(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, stream)
			}), "", ping)
			if answer != stream {
				t.Errorf("the client got %q, want %q", answer, stream)
			}
			want := []string{fmt.Sprintf("notification notifications/message %d", len(note)), fmt.Sprintf("response tools/list %d", len(reply))}
			if diff := cmp.Diff(want, sentMessages(entries)); diff != "" {
				t.Errorf("logged answers mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestProxyHTTPLongAnswers: a JSON answer and an SSE event longer than the
// 8 MiB the log holds are passed on whole and logged by size, start and the
// limit; the SSE event after the long one is logged as usual.
func TestProxyHTTPLongAnswers(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":1,"result":{"s":"` + strings.Repeat("x", 9<<20) + `"}}`
	small := `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`
	for _, tc := range []struct {
		name, contentType, body string
		want                    []string
	}{
		{"json", "application/json", big, []string{fmt.Sprintf("invalid  %d", len(big))}},
		{"sse", "text/event-stream", "data: " + big + "\r\n\r\ndata: " + small + "\r\n\r\n",
			[]string{fmt.Sprintf("invalid  %d", len("data: "+big)+2) /* each line break counted once */, fmt.Sprintf("response tools/list %d", len(small))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, answer, entries := proxyExchange(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				io.WriteString(w, tc.body)
			}), "", ping)
			if answer != tc.body {
				t.Errorf("the client got %d bytes, want the %d sent", len(answer), len(tc.body))
			}
			if diff := cmp.Diff(tc.want, sentMessages(entries)); diff != "" {
				t.Errorf("logged answers mismatch (-want +got):\n%s", diff)
			}
			for _, e := range entries {
				if e.Dir == Send && e.Kind == KindInvalid && (!strings.Contains(e.Note, "longer than 8388608 bytes (8 MiB)") || !strings.HasPrefix(big, strings.TrimPrefix(e.Raw, "data: "))) {
					t.Errorf("the long answer's entry: note %q, raw %.40q", e.Note, e.Raw)
				}
			}
		})
	}
}

// TestSSETapBounded feeds one SSE event that never ends, in chunks, and
// checks that the tap holds no more than the limit of it.
func TestSSETapBounded(t *testing.T) {
	var s sseTap
	chunk := []byte(strings.Repeat("y", 1<<20))
	s.write([]byte("data: "), nil, nil)
	for range 64 {
		s.write(chunk, nil, nil)
		if held := cap(s.line) + cap(s.data) + cap(s.start); held > 2*maxKeptBody {
			t.Fatalf("the tap holds %d bytes of one event", held)
		}
	}
	var size int
	s.write([]byte("\n\n"), func([]byte) { t.Error("an event over the limit was logged whole") }, func(n int, _ []byte) { size = n })
	if want := len("data: ") + 64<<20 + 2; size != want { // each line break counted once
		t.Errorf("long event of %d bytes, want %d", size, want)
	}
}

// TestProxyHTTPRedirect: an upstream's redirect is not followed, so the
// config's headers and the request's body reach no other host; the client
// gets 502 and the log says why.
func TestProxyHTTPRedirect(t *testing.T) {
	var reached []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		reached = append(reached, r.Header.Get("Authorization")+" "+string(body))
	}))
	defer elsewhere.Close()
	for _, code := range []int{http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		status, answer, entries := proxyExchange(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, elsewhere.URL+"/mcp", code)
		}), "", ping)
		if status != http.StatusBadGateway || !strings.Contains(answer, "redirect") {
			t.Errorf("%d: the client got %d %q, want 502 naming the redirect", code, status, answer)
		}
		last := entries[len(entries)-1]
		if last.Kind != KindFailure || !strings.Contains(last.Note, fmt.Sprintf("HTTP %d, a redirect", code)) {
			t.Errorf("%d: last entry %+v, want the refused redirect", code, last)
		}
	}
	if len(reached) > 0 {
		t.Errorf("the redirect's target got %q", reached)
	}
}

// TestProxyHTTPRefusesHost: a request whose Host is not a loopback host (a
// DNS rebinding page's) gets 403 and reaches no server.
func TestProxyHTTPRefusesHost(t *testing.T) {
	for host, want := range map[string]int{"evil.example": 403, "evil.example:80": 403, "127.0.0.1.nip.io": 403, "localhost:9": 200, "[::1]:9": 200, "127.0.0.1": 200} {
		reached := false
		status, _, _ := proxyExchange(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			reached = true
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		}), host, ping)
		if status != want || reached != (want == 200) {
			t.Errorf("Host %s: status %d, upstream reached %v; want %d", host, status, reached, want)
		}
	}
}
