package lab

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPOriginChecked: a request whose Origin is not a loopback origin
// gets 403; one from loopback, or without an Origin, is served.
func TestHTTPOriginChecked(t *testing.T) {
	srv := httptest.NewServer(labFromArgs(t, "", "-eras", "legacy").Handler())
	defer srv.Close()
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"http://evil.example", http.StatusForbidden},
		{"http://127.0.0.1.evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"http://localhost:3000", http.StatusOK},
		{"http://127.0.0.1:9999", http.StatusOK},
		{"", http.StatusOK},
	} {
		header := map[string]string{}
		if tc.origin != "" {
			header["Origin"] = tc.origin
		}
		if status, _ := postBody(t, srv.URL, header, initialize); status != tc.want {
			t.Errorf("Origin %q: status %d, want %d", tc.origin, status, tc.want)
		}
	}
}

// TestHTTPConcurrentSessionsLog checks that concurrent HTTP sessions never
// interleave or lose a log line.
func TestHTTPConcurrentSessionsLog(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "log.jsonl")
	srv := httptest.NewServer(labFromArgs(t, logPath, "-eras", "legacy", "-instr", "japanese:4000").Handler())
	defer srv.Close()
	const sessions, calls = 16, 5
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for range sessions {
		wg.Go(func() {
			client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
			if err != nil {
				errs <- err
				return
			}
			defer cs.Close()
			for range calls {
				if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_bins"}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	perSession := map[string]int{}
	for _, e := range readLog(t, logPath) { // readLog fails on any torn line
		if e.Dir == Recv && e.Method == "tools/call" {
			perSession[e.Session]++
		}
	}
	if len(perSession) != sessions {
		t.Errorf("log names %d sessions, want %d", len(perSession), sessions)
	}
	for s, n := range perSession {
		if n != calls {
			t.Errorf("session %s: %d tools/call logged, want %d", s, n, calls)
		}
	}
}

// postWithin posts body to url, giving up after timeout, and returns the
// answer and its body.
func postWithin(url, body string, timeout time.Duration) (*http.Response, string, error) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp, string(data), nil
}

// TestHTTPOnUnknown: over HTTP a legacy lab answers the server/discover
// probe with -32601, or with -on-unknown hang never answers it and serves
// on. (-on-unknown crash ends the process: internal/serve tests it.)
func TestHTTPOnUnknown(t *testing.T) {
	t.Run("error", func(t *testing.T) {
		srv := httptest.NewServer(labFromArgs(t, "", "-eras", "legacy").Handler())
		defer srv.Close()
		resp, body, err := postWithin(srv.URL, probe, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"code":-32601`) {
			t.Errorf("legacy probe over HTTP: %d %s, want 200 with -32601", resp.StatusCode, body)
		}
	})
	t.Run("hang", func(t *testing.T) {
		srv := httptest.NewServer(labFromArgs(t, "", "-eras", "legacy", "-on-unknown", "hang").Handler())
		defer srv.Close()
		_, _, err := postWithin(srv.URL, probe, 500*time.Millisecond)
		if err == nil || !strings.Contains(err.Error(), "Timeout") {
			t.Errorf("hang: POST returned %v, want a client timeout", err)
		}
		// The server still serves other requests.
		resp, body, err := postWithin(srv.URL, initialize, 5*time.Second)
		if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(body, "instructions") {
			t.Errorf("initialize after a hung probe: %v %v %.100s", err, resp, body)
		}
	})
}
