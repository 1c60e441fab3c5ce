package fakeclient

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/client"
)

func runClient() int {
	var srv client.Server
	if err := json.Unmarshal([]byte(os.Getenv("FAKE_SERVER")), &srv); err != nil {
		return fail("server config: %v", err)
	}
	emit := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}
	mode := os.Getenv("FAKE_MODE")
	instr, status, shutdown := connect(srv)
	// Like a real client, shut the server down before exiting: close its
	// stdin and wait, so that it has logged everything it was sent.
	defer shutdown()
	emit(map[string]any{"type": "system", "subtype": "init", "session_id": "fake-session",
		"mcp_servers": []map[string]string{{"name": srv.Name, "status": status}}})
	switch mode {
	case "hang":
		time.Sleep(time.Hour)
	case "crash":
		fmt.Fprintln(os.Stderr, "Usage: fake [options]")
		fmt.Fprintln(os.Stderr, "  --model  the model")
		fmt.Fprintln(os.Stderr, "")
		fmt.Fprintln(os.Stderr, "Unknown arguments: crash")
		return 3
	case "no-model":
		return 0
	}
	system := ""
	if r := []rune(instr); len(r) > 0 {
		if n := capFromEnv(); len(r) > n {
			instr = string(r[:n]) + "… [truncated]"
		}
		system = "# MCP Server Instructions\n\n## " + srv.Name + "\n" + instr
	}
	msgs := []map[string]any{{"role": "user", "content": os.Getenv("FAKE_PROMPT")}}
	if system != "" {
		msgs = append(msgs, map[string]any{"role": "system", "content": system})
	}
	body, _ := json.Marshal(map[string]any{"model": "fake-model", "stream": true, "max_tokens": 100,
		"metadata": map[string]string{"user_id": fmt.Sprint(time.Now().UnixNano())}, "messages": msgs,
		"tools": []map[string]string{{"name": "mcp__" + srv.Name + "__lookup_part"}}})
	req, _ := http.NewRequest("POST", os.Getenv("ANTHROPIC_BASE_URL")+"/v1/messages?beta=true", bytes.NewReader(body))
	req.Header.Set("x-api-key", os.Getenv("ANTHROPIC_API_KEY"))
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fail("posting: %v", err)
	}
	defer resp.Body.Close()
	text := readSSE(resp.Body)
	emit(map[string]any{"type": "result", "subtype": "success", "is_error": resp.StatusCode != 200, "result": text, "session_id": "fake-session"})
	return 0
}

// connect starts the server, sends initialize, and returns the
// instructions, the server's status and a function that shuts it down.
func connect(srv client.Server) (instr, status string, shutdown func()) {
	shutdown = func() {}
	if srv.URL != "" {
		instr, status = connectHTTP(srv.URL)
		return instr, status, shutdown
	}
	cmd := exec.Command(srv.Command, srv.Args...)
	cmd.Env = append(os.Environ(), LabEnv+"=1", envRole+"=")
	for k, v := range srv.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", "failed", shutdown
	}
	shutdown = func() {
		in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fake","version":"0"}}}`)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Result struct {
				Instructions string `json:"instructions"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || string(m.ID) != "0" {
			continue
		}
		if m.Error != nil {
			return "", "failed", shutdown
		}
		fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		return m.Result.Instructions, "connected", shutdown
	}
	return "", "failed", shutdown
}

// readSSE joins the text deltas of an Anthropic stream.
func readSSE(r io.Reader) string {
	var b strings.Builder
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var e struct {
			Delta struct {
				Text string `json:"text"`
			} `json:"delta"`
		}
		if json.Unmarshal([]byte(data), &e) == nil {
			b.WriteString(e.Delta.Text)
		}
	}
	return b.String()
}

// initializeRequest is the fake client's one request to a server.
const initializeRequest = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fake","version":"0"}}}`

// connectHTTP initializes a Streamable HTTP server at url, reading its
// answer as JSON or as SSE events.
func connectHTTP(url string) (instr, status string) {
	post := func(body, session string) (*http.Response, error) {
		req, err := http.NewRequest("POST", url, strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		return http.DefaultClient.Do(req)
	}
	resp, err := post(initializeRequest, "")
	if err != nil {
		return "", "failed"
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return "", "failed"
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(data), "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				data = []byte(strings.TrimSpace(d))
				break
			}
		}
	}
	var m struct {
		Result *struct {
			Instructions string `json:"instructions"`
		} `json:"result"`
	}
	if json.Unmarshal(data, &m) != nil || m.Result == nil {
		return "", "failed"
	}
	if r, err := post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, resp.Header.Get("Mcp-Session-Id")); err == nil {
		r.Body.Close()
	}
	return m.Result.Instructions, "connected"
}
