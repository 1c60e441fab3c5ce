package lab

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDropAfterCalls: with DropAfterCalls 1, the lab's first tools/call
// is answered and every request after it in that session, whatever its
// method, gets 404, logged as dropped on purpose; the session the client
// opens then (initializing again) is served whole. DropSession counts
// each session's requests instead, and drops the new one too.
func TestDropAfterCalls(t *testing.T) {
	const call = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"lookup_part","arguments":{"part":"BR-6201"}}}`
	const ping = `{"jsonrpc":"2.0","id":4,"method":"ping"}`
	for _, tt := range []struct {
		name string
		cfg  Config
		// want is the status of each request of the two sessions after
		// initialize: initialized, tools/list, the call, ping, tools/list.
		want [2][]int
		note string
	}{
		{"after calls", Config{DropAfterCalls: 1}, [2][]int{{202, 200, 200, 404, 404}, {202, 200, 200, 200, 200}},
			"after tools/call number 1 of the lab, in it (-drop-after-calls 1)"},
		{"after requests", Config{DropSession: 2}, [2][]int{{202, 200, 404, 404, 404}, {202, 200, 404, 404, 404}},
			"after 2 requests in it (-drop-session 2)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var log bytes.Buffer
			cfg := tt.cfg
			cfg.Instructions, cfg.Log = Instructions{Language: English, Length: 100}, NewMessageLog(&log)
			l, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(l.Handler())
			defer srv.Close()
			var sessions []string
			for k := range 2 { // the second session: the client initializing again
				status, h := post(t, srv.URL, "", initialize)
				id := h.Get("Mcp-Session-Id")
				if status != http.StatusOK || id == "" {
					t.Fatalf("initialize: status %d, session %q", status, id)
				}
				sessions = append(sessions, id)
				var got []int
				for _, body := range []string{initialized, toolsList, call, ping, toolsList} {
					status, _ := post(t, srv.URL, id, body)
					got = append(got, status)
				}
				if diff := cmp.Diff(tt.want[k], got); diff != "" {
					t.Errorf("session %d: statuses mismatch (-want +got):\n%s", k+1, diff)
				}
			}
			var lost []string
			for _, e := range parseLog(t, log.Bytes()) {
				if e.Kind == KindHTTP && e.Status == http.StatusNotFound {
					if !strings.Contains(e.Note, tt.note) {
						t.Errorf("404 note %q: want %q", e.Note, tt.note)
					}
					if len(lost) == 0 || lost[len(lost)-1] != e.Session {
						lost = append(lost, e.Session)
					}
				}
			}
			want := sessions
			if tt.cfg.DropAfterCalls > 0 {
				want = sessions[:1]
			}
			if diff := cmp.Diff(want, lost); diff != "" {
				t.Errorf("sessions logged lost mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDropConfigRefused: the two ways of dropping exclude each other, and
// both need the legacy era's sessions.
func TestDropConfigRefused(t *testing.T) {
	for _, cfg := range []Config{
		{DropSession: 1, DropAfterCalls: 1},
		{DropAfterCalls: 1, Eras: ModeBoth},
		{DropAfterCalls: -1},
	} {
		if err := cfg.Validate(); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	if _, err := ParseArgs([]string{"-drop-after-calls", "1"}); err == nil {
		t.Error("-drop-after-calls without -http: no error")
	}
}

// post posts body in session ("" for none) and returns the status and
// the reply's header.
func post(t *testing.T, url, session, body string) (int, http.Header) {
	t.Helper()
	status, header, _ := postRead(t, url, session, body)
	return status, header
}

// postRead is post with the reply's body.
func postRead(t *testing.T, url, session, body string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data
}

// TestSessionTexts: with SessionTexts, the first initialize carries the
// lab's text and each later one the text of its number
// (Instructions.ForSession), of the same length with other codewords;
// without, every initialize carries the first.
func TestSessionTexts(t *testing.T) {
	in := Instructions{Language: English, Length: 300}
	for _, each := range []bool{true, false} {
		l, err := New(Config{Instructions: in, SessionTexts: each})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(l.Handler())
		var got []string
		for range 3 {
			req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(initialize))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			_, body, _ := strings.Cut(string(data), "data: ")
			var m struct {
				Result struct{ Instructions string } `json:"result"`
			}
			if err := json.Unmarshal([]byte(strings.TrimSpace(strings.SplitN(body, "\n", 2)[0])), &m); err != nil {
				t.Fatalf("initialize reply %q: %v", data, err)
			}
			got = append(got, m.Result.Instructions)
		}
		srv.Close()
		var want []string
		for n := 1; n <= 3; n++ {
			k := 1
			if each {
				k = n
			}
			text, err := in.ForSession(ReplyInitialize, k)
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, text.Text)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("session texts %v: mismatch (-want +got):\n%s", each, diff)
		}
		if init, _ := l.Texts(); got[0] != init.Text {
			t.Errorf("session texts %v: the first initialize's text is not the lab's", each)
		}
		if each && (got[1] == got[0] || len([]rune(got[1])) != len([]rune(got[0]))) {
			t.Errorf("the second session's text is the first's, or of another length:\n%s\n%s", got[0], got[1])
		}
	}
	if err := (Config{SessionTexts: true}).Validate(); err == nil {
		t.Error("SessionTexts without a generated text: no error")
	}
}
