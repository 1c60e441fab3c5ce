package fakeclient

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// The fake client's server/discover request over HTTP (FAKE_PROBE=1), in
// the 2026-07-28 form: the client's version, info and capabilities in
// _meta, and the same _meta on tools/list.
const (
	modernMeta          = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"fake","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}`
	discoverRequest     = `{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{` + modernMeta + `}}`
	modernToolsRequest  = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta + `}}`
	modernVersionHeader = "2026-07-28"
)

// An httpConn is the fake client's Streamable HTTP connection: the
// session the server gave, and, once it took a DiscoverResult, that
// result's ttlMs and when it came. With FAKE_PROBE=1 it sends
// server/discover first and falls back to initialize when that brings
// no result; with FAKE_REFETCH=1 it fetches the DiscoverResult again
// before a later turn once its ttlMs has passed; with FAKE_REOPEN=1 it
// opens a new session when a call gets no answer (a lost session).
type httpConn struct {
	url     string
	session string
	probe   bool
	refetch bool
	reopen  bool
	modern  bool
	ttl     time.Duration
	fetched time.Time
}

func newHTTPConn(url string) *httpConn {
	return &httpConn{url: url, probe: os.Getenv("FAKE_PROBE") == "1", refetch: os.Getenv("FAKE_REFETCH") == "1",
		reopen: os.Getenv("FAKE_REOPEN") == "1"}
}

// call calls the server's tool name without arguments. When the call
// gets no answer (the server lost the session) and the client reopens
// (FAKE_REOPEN=1), it opens a new session (initialize, initialized,
// tools/list), calls again there and returns what the new session gave,
// which the client then uses; nil when it opened none.
func (h *httpConn) call(name string) *ready {
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, name)
	if _, ok := h.post("tools/call", req); ok || !h.reopen {
		return nil
	}
	h.session = ""
	got, ok := h.connect()
	if !ok {
		return nil
	}
	h.post("tools/call", req)
	return got
}

// post sends one message and returns the answer's one message (a JSON
// body, or the first SSE event's data); ok is false for an answer other
// than 2xx or none.
func (h *httpConn) post(method, body string) ([]byte, bool) {
	req, err := http.NewRequest("POST", h.url, strings.NewReader(body))
	if err != nil {
		return nil, false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	if h.modern || method == "server/discover" {
		req.Header.Set("Mcp-Protocol-Version", modernVersionHeader)
		req.Header.Set("Mcp-Method", method)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, false
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if h.session == "" {
		h.session = resp.Header.Get("Mcp-Session-Id")
	}
	if resp.StatusCode/100 != 2 {
		return nil, false
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(data), "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				return []byte(strings.TrimSpace(d)), true
			}
		}
	}
	return data, true
}

// discover sends server/discover and returns the instructions of its
// result, keeping its ttlMs; ok is false when it brought no result.
func (h *httpConn) discover() (string, bool) {
	data, ok := h.post("server/discover", discoverRequest)
	var m struct {
		Result *struct {
			Instructions string `json:"instructions"`
			TTLMs        int    `json:"ttlMs"`
		} `json:"result"`
	}
	if !ok || json.Unmarshal(data, &m) != nil || m.Result == nil {
		return "", false
	}
	h.modern, h.ttl, h.fetched = true, time.Duration(m.Result.TTLMs)*time.Millisecond, time.Now()
	return m.Result.Instructions, true
}

// connect makes the handshake (server/discover first with FAKE_PROBE,
// else initialize and initialized) and lists the tools; ok is false when
// the handshake failed.
func (h *httpConn) connect() (got *ready, ok bool) {
	if h.probe {
		if text, ok := h.discover(); ok {
			got = &ready{instructions: text}
		}
	}
	if got == nil {
		var m reply
		data, ok := h.post("initialize", initializeRequest)
		if !ok || json.Unmarshal(data, &m) != nil || m.Result == nil {
			return nil, false
		}
		got = &ready{instructions: m.Result.Instructions}
		h.post("notifications/initialized", initializedNotification)
	}
	list := toolsListRequest
	if h.modern {
		list = modernToolsRequest
	}
	if data, ok := h.post("tools/list", list); ok {
		var t reply
		if json.Unmarshal(data, &t) == nil && t.Result != nil {
			got.tools = t.Result.Tools
		}
	}
	return got, true
}

// stale fetches the DiscoverResult again when the client keeps it fresh
// (FAKE_REFETCH) and its ttlMs has passed, and returns its instructions;
// ok is false when nothing was fetched.
func (h *httpConn) stale() (string, bool) {
	if h == nil || !h.refetch || !h.modern || time.Since(h.fetched) <= h.ttl {
		return "", false
	}
	return h.discover()
}
