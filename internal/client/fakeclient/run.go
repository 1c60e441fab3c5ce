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
	"slices"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/client"
)

func runClient() int {
	var srv client.Server
	if err := json.Unmarshal([]byte(os.Getenv("FAKE_SERVER")), &srv); err != nil {
		return fail("server config: %v", err)
	}
	b, err := budgetFromEnv()
	if err != nil {
		return fail("%v", err)
	}
	emit := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}
	mode := os.Getenv("FAKE_MODE")
	conn := connect(srv)
	// Like a real client, shut the server down before exiting: close its
	// stdin and wait, so that it has logged everything it was sent.
	defer conn.shutdown()
	got, status := conn.wait(b)
	if status == statusFailed && b.past == pastExit {
		conn.abort()
		return fail("MCP server(s) failed to load: %s: MCP error -32001: Request timed out", srv.Name)
	}
	emit(map[string]any{"type": "system", "subtype": "init", "session_id": "fake-session",
		"mcp_servers": []map[string]string{{"name": srv.Name, "status": status}}})
	if child := os.Getenv("FAKE_CHILD"); child != "" {
		// A command of its own in its group, as a shell of a client's
		// Bash tool is; left running.
		if err := exec.Command("/bin/sh", "-c", child).Start(); err != nil {
			return fail("FAKE_CHILD: %v", err)
		}
	}
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
	var text string
	isErr := false
	for turn := 1; turn <= b.turns; turn++ {
		if turn > 1 {
			time.Sleep(b.gap)
		}
		if turn > 1 && got == nil && status == statusPending {
			// A server that became ready since joins the session.
			if late := conn.now(); late != nil {
				got = late
				if b.late == lateToolsOnly {
					got = &ready{tools: late.tools}
				}
			}
		}
		if turn > 1 && got != nil {
			if text, ok := conn.http.stale(); ok {
				got = &ready{instructions: text, tools: got.tools}
			}
		}
		if text, isErr, err = ask(srv.Name, got, turn, b); err != nil {
			return fail("%v", err)
		}
		if mode == "stall" {
			time.Sleep(time.Hour) // a turn that never ends
		}
		if name := os.Getenv("FAKE_CALL"); name != "" && conn.http != nil && turn < b.turns {
			if again := conn.http.call(name); again != nil {
				got = again // a new session's text and tools
			}
		}
	}
	emit(map[string]any{"type": "result", "subtype": "success", "is_error": isErr, "result": text, "session_id": "fake-session"})
	return 0
}

// ask posts one streaming Anthropic Messages request holding what the
// server gave (nothing when got is nil) and returns the answer's text,
// and whether the API answered with an error.
func ask(server string, got *ready, turn int, b budget) (string, bool, error) {
	system := ""
	if got != nil {
		if r := []rune(got.instructions); len(r) > 0 {
			instr := got.instructions
			if n := capFromEnv(); len(r) > n {
				instr = string(r[:n]) + "… [truncated]"
			}
			system = "# MCP Server Instructions\n\n## " + server + "\n" + instr
		}
	}
	msgs := []map[string]any{{"role": "user", "content": os.Getenv("FAKE_PROMPT")}}
	if os.Getenv("FAKE_HISTORY") == "append" {
		// Every turn repeats the one before and adds a message.
		if system != "" {
			msgs = append(msgs, map[string]any{"role": "system", "content": system})
		}
		for k := 2; k <= turn; k++ {
			msgs = append(msgs, map[string]any{"role": "user", "content": fmt.Sprintf("turn %d", k)})
		}
	} else {
		// The system message follows this turn's message: it moves.
		if turn > 1 {
			msgs = append(msgs, map[string]any{"role": "user", "content": fmt.Sprintf("turn %d", turn)})
		}
		if system != "" {
			msgs = append(msgs, map[string]any{"role": "system", "content": system})
		}
	}
	tools := []map[string]string{{"name": "Read", "description": "Read a file."}}
	if got != nil {
		var deferred []string
		listed := got.tools
		if os.Getenv("FAKE_TOOL_ORDER") == "sort" {
			listed = slices.SortedFunc(slices.Values(listed), func(a, b tool) int { return strings.Compare(a.Name, b.Name) })
		}
		for _, t := range listed {
			name := "mcp__" + server + "__" + t.Name
			if b.nameMax > 0 && len(name) > b.nameMax {
				if b.namePast == nameDrop {
					continue
				}
				name = name[:b.nameMax]
			}
			if b.deferAt > 0 && len(got.tools) >= b.deferAt {
				deferred = append(deferred, name)
				continue
			}
			tools = append(tools, map[string]string{"name": name, "description": t.Description})
		}
		if len(deferred) > 0 {
			tools = append(tools, map[string]string{"name": "ToolSearch", "description": "Load deferred tools."})
			msgs = append(msgs, map[string]any{"role": "user", "content": "The following deferred tools are available via ToolSearch:\n" + strings.Join(deferred, "\n")})
		}
	}
	body, _ := json.Marshal(map[string]any{"model": "fake-model", "stream": true, "max_tokens": 100,
		"metadata": map[string]string{"user_id": fmt.Sprint(time.Now().UnixNano())}, "messages": msgs, "tools": tools})
	base := os.Getenv("ANTHROPIC_BASE_URL")
	if h := os.Getenv("FAKE_HOST"); h != "" {
		base = "https://" + h
	}
	req, _ := http.NewRequest("POST", base+"/v1/messages?beta=true", bytes.NewReader(body))
	req.Header.Set("x-api-key", os.Getenv("ANTHROPIC_API_KEY"))
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", false, fmt.Errorf("posting: %w", err)
	}
	defer resp.Body.Close()
	return readSSE(resp.Body), resp.StatusCode != 200, nil
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

// The fake client's messages to a server: initialize, then initialized
// and tools/list.
const (
	cancelInitialize        = `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0,"reason":"Request timed out"}}`
	initializeRequest       = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fake","version":"0"}}}`
	initializedNotification = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	toolsListRequest        = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
)

// A reply is a server's answer to initialize or tools/list, as far as the
// fake client reads it.
type reply struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		Instructions string `json:"instructions"`
		Tools        []tool `json:"tools"`
	} `json:"result"`
	Error json.RawMessage `json:"error"`
}
