package fakeapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const testPrompt = "Reply with BEGIN=<...> and [at N]."

func start(t *testing.T, opts Options) *Server {
	t.Helper()
	s, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func post(t *testing.T, url, key, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-api-key", key)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// sseText joins the text deltas and tool inputs of an SSE stream.
func sseText(t *testing.T, stream string) (text string, events []string) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(stream))
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			events = append(events, name)
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			continue
		}
		var e struct {
			Delta struct {
				Text        string `json:"text"`
				PartialJSON string `json:"partial_json"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			t.Fatalf("bad SSE data %q: %v", data, err)
		}
		text += e.Delta.Text + e.Delta.PartialJSON
	}
	return text, events
}

func TestServerStreamsTheReadersLine(t *testing.T) {
	dir := t.TempDir()
	s := start(t, Options{Dir: dir, Prompt: testPrompt})
	body := `{"model":"m","stream":true,"messages":[{"role":"system","content":"BEGIN codeword: HERON-4821. [at 250] END codeword: OSPREY-3094."},{"role":"user","content":"` + testPrompt + ` [at 9999]"}]}`
	resp, out := post(t, s.URL+"/v1/messages?beta=true", "sk-secret", body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	text, events := sseText(t, out)
	// The marker in the user's own turn counts: only the prompt text is skipped.
	if want := "BEGIN=HERON-4821 END=OSPREY-3094 LAST=9999"; text != want {
		t.Errorf("reply %q, want %q", text, want)
	}
	wantEvents := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}
	if diff := cmp.Diff(wantEvents, events); diff != "" {
		t.Errorf("events mismatch (-want +got):\n%s", diff)
	}
	s.Close()
	reqs, warnings, err := ReadRequests(filepath.Join(dir, RequestsFile))
	if err != nil || len(warnings) > 0 {
		t.Fatalf("ReadRequests: %v %v", err, warnings)
	}
	if len(reqs) != 1 {
		t.Fatalf("%d requests recorded, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Header.Get("X-Api-Key") != "[redacted]" || r.Header.Get("Authorization") != "[redacted]" {
		t.Errorf("credentials kept: %v", r.Header)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, RequestsFile))
	if strings.Contains(string(raw), "sk-secret") {
		t.Error("the key reached the request log")
	}
	if r.Query != "beta=true" || r.API != "anthropic-messages" || r.Status != 200 || string(r.Body) != body {
		t.Errorf("recorded %+v", r)
	}
}

func TestServerNonStreamAndCountTokens(t *testing.T) {
	s := start(t, Options{Prompt: testPrompt})
	_, out := post(t, s.URL+"/v1/messages", "k", `{"model":"m","messages":[{"role":"user","content":"nothing"}]}`)
	var msg struct {
		Content []struct{ Text string } `json:"content"`
		Usage   struct {
			InputTokens int `json:"input_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal([]byte(out), &msg); err != nil {
		t.Fatalf("non-stream reply %q: %v", out, err)
	}
	if len(msg.Content) != 1 || msg.Content[0].Text != "BEGIN=NONE END=NONE LAST=NONE" || msg.Usage.InputTokens <= 0 {
		t.Errorf("reply %+v", msg)
	}
	_, out = post(t, s.URL+"/v1/messages/count_tokens", "k", `{"messages":[{"role":"user","content":"hello world"}]}`)
	if !strings.Contains(out, `"input_tokens":2`) {
		t.Errorf("count_tokens reply %q", out)
	}
}

func TestServerUnknownPathsAndBadBodies(t *testing.T) {
	s := start(t, Options{})
	resp, err := http.Head(s.URL + "/api/hello")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("HEAD /api/hello: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	r2, out := post(t, s.URL+"/v1/messages", "k", `not json`)
	if r2.StatusCode != 400 || !strings.Contains(out, "invalid_request_error") {
		t.Errorf("bad body: %d %q", r2.StatusCode, out)
	}
	reqs := s.Recorder.Requests()
	got := []string{}
	for _, r := range reqs {
		got = append(got, r.Method+" "+r.Path+" "+http.StatusText(r.Status)+" "+r.BodyText)
	}
	want := []string{"HEAD /api/hello Not Found ", "POST /v1/messages Bad Request not json"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("recorded mismatch (-want +got):\n%s", diff)
	}
}

func TestServerScript(t *testing.T) {
	s := start(t, Options{Prompt: testPrompt, Script: []Turn{{Tool: "Bash", Input: json.RawMessage(`{"command":"sleep 10"}`)}}})
	withTools := `{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"}]}`
	noTools := `{"stream":true,"messages":[{"role":"user","content":"title please"}]}`
	second := `{"stream":true,"tools":[{"name":"Bash"}],"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]},{"role":"user","content":[{"type":"tool_result","content":"ok BEGIN codeword: HERON-4821."}]}]}`
	var got []string
	for _, b := range []string{noTools, withTools, second} {
		_, out := post(t, s.URL+"/v1/messages", "k", b)
		text, events := sseText(t, out)
		got = append(got, text+" "+strings.Join(events[:2], ","))
	}
	want := []string{
		"BEGIN=NONE END=NONE LAST=NONE message_start,content_block_start",
		`{"command":"sleep 10"} message_start,content_block_start`,
		"BEGIN=HERON-4821 END=NONE LAST=NONE message_start,content_block_start",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("script mismatch (-want +got):\n%s", diff)
	}
	if r := s.Recorder.Requests()[1].Reply; !strings.HasPrefix(r, "tool_use Bash") {
		t.Errorf("recorded reply %q", r)
	}
}

func TestServerForwardsUpstreamWithTheUsersKeyOnly(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	upstreamFake := start(t, Options{Prompt: testPrompt})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("X-Api-Key")+"|"+r.Header.Get("Authorization"))
		mu.Unlock()
		upstreamFake.ServeHTTP(w, r)
	}))
	defer upstream.Close()
	dir := t.TempDir()
	s := start(t, Options{Dir: dir, Upstream: &Upstream{URL: upstream.URL, Key: "sk-user-key"}})
	body := `{"stream":true,"messages":[{"role":"system","content":"BEGIN codeword: HERON-4821."},{"role":"user","content":"hi"}]}`
	_, out := post(t, s.URL+"/v1/messages?beta=true", "sk-dummy", body)
	if text, _ := sseText(t, out); text != "BEGIN=HERON-4821 END=NONE LAST=NONE" {
		t.Errorf("forwarded reply %q", text)
	}
	if diff := cmp.Diff([]string{"sk-user-key|"}, keys); diff != "" {
		t.Errorf("upstream keys mismatch (-want +got):\n%s", diff)
	}
	s.Close()
	raw, _ := os.ReadFile(filepath.Join(dir, RequestsFile))
	if strings.Contains(string(raw), "sk-user-key") || strings.Contains(string(raw), "sk-dummy") {
		t.Error("a key reached the request log")
	}
	reqs, _, _ := ReadRequests(filepath.Join(dir, RequestsFile))
	if len(reqs) != 1 || reqs[0].Upstream != upstream.URL || string(reqs[0].Body) != body {
		t.Errorf("recorded %+v", reqs)
	}
}

func FuzzReadRequests(f *testing.F) {
	f.Add([]byte(`{"seq":2,"method":"POST","body":{"a":1}}` + "\n" + `{"seq":1}` + "\nnot json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), RequestsFile)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		reqs, _, err := ReadRequests(p)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(reqs); i++ {
			if reqs[i].Seq < reqs[i-1].Seq {
				t.Fatalf("not in order: %d before %d", reqs[i-1].Seq, reqs[i].Seq)
			}
		}
	})
}
