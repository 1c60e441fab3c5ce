package probe

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/lab"
)

func labHTTP(t *testing.T, era lab.Mode) Target {
	t.Helper()
	in, _ := lab.ParseInstructions("ascii:1000")
	l, err := lab.New(lab.Config{Instructions: in, Eras: era})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	t.Cleanup(srv.Close)
	return Target{Name: "lab", Transport: TransportHTTP, URL: srv.URL}
}

func TestProbeHTTPLab(t *testing.T) {
	initText := labCodeword(lab.English, 1000, lab.ReplyInitialize)
	discText := labCodeword(lab.English, 1000, lab.ReplyDiscover)
	tests := []struct {
		era  lab.Mode
		want shape
	}{
		{lab.ModeLegacy, shape{Legacy: OutcomeOK, Modern: OutcomeError, ModernCode: -32601, Survival: SurvivalMethodNotFound,
			LegacyText: initText, ModernText: "none", LegacyTools: 3}},
		{lab.ModeBoth, shape{Legacy: OutcomeOK, Modern: OutcomeOK, Survival: SurvivalModern,
			LegacyText: initText, ModernText: discText, LegacyTools: 3, ModernTools: 3}},
		{lab.ModeModern, shape{Legacy: OutcomeError, LegacyCode: -32022, Modern: OutcomeOK, Survival: SurvivalModern,
			LegacyText: "none", ModernText: discText, ModernTools: 3}},
	}
	for _, tt := range tests {
		t.Run(string(tt.era), func(t *testing.T) {
			r := Probe(context.Background(), labHTTP(t, tt.era), quick)
			if diff := cmp.Diff(tt.want, shapeOf(r)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s\nlegacy: %s\nmodern: %s", diff, r.Legacy.Detail, r.Modern.Detail)
			}
			if r.Legacy.Answered() && r.Legacy.FirstReply <= 0 {
				t.Errorf("no first-reply time for an answered era")
			}
		})
	}
}

// TestProbeHTTPBad covers URLs that are not MCP endpoints: each is a clear
// outcome with a one-line detail, never a hang.
func TestProbeHTTPBad(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()

	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><html><body>Welcome</body></html>"))
	}))
	defer html.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://example.invalid/mcp", http.StatusFound)
	}))
	defer redirect.Close()
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	bare404 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil
		w.WriteHeader(http.StatusNotFound)
	}))
	defer bare404.Close()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // the server notices a closed connection only after the body
		<-r.Context().Done()
	}))
	defer hang.Close()

	tests := []struct {
		name, url string
		outcome   Outcome
		detail    string
	}{
		{"refused", refused, OutcomeNoStart, "connection refused"},
		{"html", html.URL, OutcomeInvalid, "HTML page"},
		{"redirect", redirect.URL, OutcomeInvalid, `redirect to "https://example.invalid/mcp"`},
		{"not found", notFound.URL, OutcomeInvalid, "HTTP 404 (text/plain; charset=utf-8): 404 page not found"},
		{"404 without a body", bare404.URL, OutcomeInvalid, "HTTP 404 (no content type), empty body"},
		{"hang", hang.URL, OutcomeSilent, "no reply within 500ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			r := Probe(context.Background(), Target{Name: "x", Transport: TransportHTTP, URL: tt.url}, Options{Timeout: 500 * time.Millisecond})
			for _, e := range []EraResult{r.Legacy, r.Modern} {
				if e.Outcome != tt.outcome || !strings.Contains(e.Detail, tt.detail) {
					t.Errorf("%s: %s: %s, want %s containing %q", e.Era, e.Outcome, e.Detail, tt.outcome, tt.detail)
				}
			}
			if d := time.Since(start); d > 15*time.Second { // a hang, not a slow machine
				t.Errorf("took %v", d)
			}
		})
	}
}

// TestProbeHTTPCrash: a server that dies on server/discover is reported as
// gone, not as unreachable; the legacy era runs first, so it is unharmed.
// TestProbeHTTPErrorTiming: a JSON-RPC error sent with an HTTP error
// status is timed like any reply, not reported as 0 ms.
func TestProbeHTTPErrorTiming(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"bad session"}}`)
	}))
	defer srv.Close()
	r := Probe(context.Background(), Target{Name: "x", Transport: TransportHTTP, URL: srv.URL}, quick)
	for _, e := range []EraResult{r.Legacy, r.Modern} {
		if e.FirstReply.D() < 20*time.Millisecond {
			t.Errorf("%s: %s (%s) first reply %v, want the time the reply took (at least 20ms)", e.Era, e.Outcome, e.Detail, e.FirstReply.D())
		}
	}
}

func TestProbeHTTPCrash(t *testing.T) {
	in, _ := lab.ParseInstructions("ascii:1000")
	var srv *httptest.Server
	l, err := lab.New(lab.Config{Instructions: in, OnUnknown: lab.UnknownCrash, Stderr: io.Discard,
		Exit: func(int) { srv.CloseClientConnections() }})
	if err != nil {
		t.Fatal(err)
	}
	srv = httptest.NewServer(l.Handler())
	defer srv.Close()
	r := Probe(context.Background(), Target{Name: "lab", Transport: TransportHTTP, URL: srv.URL}, quick)
	if !r.Legacy.OK() || r.Modern.Outcome != OutcomeExit || r.Survival.Verdict != SurvivalExit {
		t.Errorf("legacy %s, modern %s (%s), survival %s: want ok, exit, exit", r.Legacy.Outcome, r.Modern.Outcome, r.Modern.Detail, r.Survival.Verdict)
	}
}

// TestProbeHTTPSilentOneTimeout: a server that answers nothing costs one
// timeout, not one per era. The server counts the waits that did not
// overlap another: each JSON-RPC request that arrives while no other is
// pending starts a timeout of its own. Before the eras overlapped on
// silence, there were two.
func TestProbeHTTPSilentOneTimeout(t *testing.T) {
	var mu sync.Mutex
	pending, alone := 0, 0
	var methods []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var msg struct{ Method string }
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || json.Unmarshal(body, &msg) != nil || (msg.Method != "initialize" && msg.Method != "server/discover") {
			return // a notification (a cancellation, say) starts no wait
		}
		mu.Lock()
		if pending == 0 {
			alone++
		}
		pending++
		methods = append(methods, msg.Method)
		mu.Unlock()
		<-r.Context().Done() // silent until the client gives up
		mu.Lock()
		pending--
		mu.Unlock()
	}))
	defer srv.Close()
	r := Probe(context.Background(), Target{Name: "x", Transport: TransportHTTP, URL: srv.URL}, Options{Timeout: 6 * time.Second})
	if r.Legacy.Outcome != OutcomeSilent || r.Modern.Outcome != OutcomeSilent {
		t.Errorf("legacy %s, modern %s: want both silent", r.Legacy.Outcome, r.Modern.Outcome)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(methods)
	if diff := cmp.Diff([]string{"initialize", "server/discover"}, methods); diff != "" {
		t.Errorf("requests mismatch (-want +got):\n%s", diff)
	}
	if alone != 1 {
		t.Errorf("%d timeouts waited one after the other, want 1", alone)
	}
}

// TestProbeHTTPLongAnswers: a JSON answer longer than MaxAnswer, and one
// SSE event that never ends, each fail their era with the limit named, not
// "unexpected EOF", and without reading more than the limit.
func TestProbeHTTPLongAnswers(t *testing.T) {
	var sent sync.Map // URL path: bytes the server could write
	long := func(sse bool) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			if r.Method != http.MethodPost {
				http.Error(w, "no", http.StatusMethodNotAllowed)
				return
			}
			chunk := []byte(strings.Repeat("x", 64<<10))
			if sse {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte(`data: {"jsonrpc":"2.0","id":1,"result":{"s":"`))
			} else {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"s":"`))
			}
			n := 0
			for ; n < 64<<20; n += len(chunk) { // 64 MiB at most: the test's bound, not the probe's
				if _, err := w.Write(chunk); err != nil {
					break
				}
			}
			sent.Store(r.URL.Path, n)
		}
	}
	for _, sse := range []bool{false, true} {
		srv := httptest.NewServer(long(sse))
		r := Probe(context.Background(), Target{Name: "x", Transport: TransportHTTP, URL: srv.URL + "/mcp"}, Options{Timeout: 20 * time.Second})
		srv.Close()
		want := "longer than 8388608 bytes"
		if sse {
			want = "exceeded 8388608 bytes"
		}
		for _, e := range []EraResult{r.Legacy, r.Modern} {
			if !strings.Contains(e.Detail, want) || strings.Contains(e.Detail, "unexpected EOF") {
				t.Errorf("sse %v: %s: %s: %s, want the limit named (%q)", sse, e.Era, e.Outcome, e.Detail, want)
			}
		}
		if n, _ := sent.Load("/mcp"); n.(int) >= 64<<20 {
			t.Errorf("sse %v: the probe read all %d bytes the server wrote", sse, n)
		}
	}
}
