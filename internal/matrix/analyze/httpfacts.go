package analyze

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/instrlab/instrlab/lab"
)

// HTTPFacts are what a message log shows of a run over Streamable HTTP
// (the lab's, or the recording proxy's in front of a user's server):
// what the client asked with, what it did with the DiscoverResult's
// cache fields, and its sessions. Counts and forms only.
type HTTPFacts struct {
	// Requests counts the JSON-RPC requests received; Discovers and
	// Initializes those of server/discover and initialize.
	Requests    int `json:"requests"`
	Discovers   int `json:"discovers"`
	Initializes int `json:"initializes"`
	// DiscoverShape is the first server/discover request's params, by
	// their keys (the protocol's "io.modelcontextprotocol/" prefix left
	// out) and the protocol version it named, as
	// "_meta{clientCapabilities,clientInfo,protocolVersion=2026-07-28}";
	// "" when none was sent or the log did not keep it.
	DiscoverShape string `json:"discover_shape,omitempty"`
	// TTLMs and CacheScope are what the first DiscoverResult said; nil
	// and "" when none was sent.
	TTLMs      *int   `json:"ttl_ms,omitempty"`
	CacheScope string `json:"cache_scope,omitempty"`
	// PastTTL counts the requests received after that result's ttlMs had
	// passed (the session outlived it when more than 0), and Refetched
	// the server/discover requests among them: a client that keeps the
	// result fresh fetches it again.
	PastTTL   int `json:"past_ttl"`
	Refetched int `json:"refetched"`
	// Sessions counts the distinct Mcp-Session-Id values the client sent
	// or the server gave; SessionRequests the requests sent in one.
	Sessions        int `json:"sessions"`
	SessionRequests int `json:"session_requests"`
	// Streams counts the GET requests (a stream for the server's
	// messages), Resumed those with a Last-Event-ID (resuming a stream),
	// Deletes the DELETE requests (the client ending its session).
	Streams int `json:"streams,omitempty"`
	Resumed int `json:"resumed,omitempty"`
	Deletes int `json:"deletes,omitempty"`
	// Lost says how a session was lost mid-run (the server answered 404
	// to a request in it), with what the client did then; "" when none
	// was. Reopened reports that the client then opened a new session,
	// as the protocol asks: the run goes on, and does not fail for it.
	Lost     string `json:"lost,omitempty"`
	Reopened bool   `json:"reopened,omitempty"`
}

// httpFacts reads a message log of a run over HTTP.
func httpFacts(msgs []LabMessage) *HTTPFacts {
	f := &HTTPFacts{}
	sessions := map[string]bool{}
	var (
		resultAt time.Time // when the first DiscoverResult was sent
		ttl      time.Duration
		lost     *LabMessage
		after    []string // the methods received after the session was lost
		newer    bool     // a session other than the lost one was used after
	)
	for i := range msgs {
		m := &msgs[i]
		if m.Session != "" {
			sessions[m.Session] = true
		}
		switch {
		case m.Dir == lab.Recv && m.Kind == lab.KindHTTP:
			switch m.HTTPMethod {
			case "GET":
				f.Streams++
				if m.LastEventID != "" {
					f.Resumed++
				}
			case "DELETE":
				f.Deletes++
			}
		case m.Dir == lab.Send && m.Kind == lab.KindHTTP && m.Status == 404 && m.Session != "":
			if lost == nil {
				lost = m
			}
		case m.Dir == lab.Recv && m.Kind == lab.KindRequest:
			f.Requests++
			if m.Session != "" {
				f.SessionRequests++
			}
			if lost != nil {
				after = append(after, m.Method)
				newer = newer || m.Session != "" && m.Session != lost.Session
			}
			if !resultAt.IsZero() && m.Time.Sub(resultAt) > ttl {
				f.PastTTL++
				if m.Method == lab.Modern.Method() {
					f.Refetched++
				}
			}
			switch m.Method {
			case lab.Modern.Method():
				f.Discovers++
				if f.Discovers == 1 {
					f.DiscoverShape = shape(m.Body)
				}
			case lab.Legacy.Method():
				f.Initializes++
			}
		case m.Dir == lab.Send && m.Kind == lab.KindResponse && m.Method == lab.Modern.Method() && resultAt.IsZero():
			var r struct {
				Result struct {
					TTLMs      *int   `json:"ttlMs"`
					CacheScope string `json:"cacheScope"`
				} `json:"result"`
			}
			if json.Unmarshal(m.Body, &r) == nil {
				resultAt, f.TTLMs, f.CacheScope = m.Time, r.Result.TTLMs, r.Result.CacheScope
				if f.TTLMs != nil {
					ttl = time.Duration(*f.TTLMs) * time.Millisecond
				}
			}
		}
	}
	f.Sessions = len(sessions)
	if lost != nil {
		f.Lost, f.Reopened = lostSession(lost, after, newer), newer
	}
	return f
}

// judge is a run's status and reason, given its status and reason before:
// a lost session fails a run, unless the client opened a new one, as the
// protocol asks (the reconnect the sessions matrix measures); a run that
// failed anyway says it too.
func (f *HTTPFacts) judge(status, reason string) (string, string) {
	switch {
	case f.Lost == "":
	case status != StatusOK:
		reason += "; " + f.Lost
	case !f.Reopened:
		status, reason = StatusFailed, f.Lost
	}
	return status, reason
}

// A reopening is a session the client opened after its first (over HTTP,
// where the server lost the one before): each JSON-RPC request the client
// sent to open it and in it, with the time it was received. Notifications
// are left out: a client's own (Kilo Code's notifications/cancelled of a
// call already answered) may go either side of its requests.
type reopening []sent

type sent struct {
	at     time.Time
	method string
}

// reopenings are the sessions of a message log after the first, in the
// order they were opened. The requests that carry no session id (the
// initialize that opens one, a server/discover probe before it) belong to
// the session whose id the log shows next.
func reopenings(msgs []LabMessage) []reopening {
	var out []reopening
	index := map[string]int{} // a session's index in out; -1 for the first
	var opening reopening     // requests without a session id, since the last session opened
	for i := range msgs {
		m := &msgs[i]
		client := m.Dir == lab.Recv && m.Kind == lab.KindRequest
		if m.Session == "" {
			if client {
				opening = append(opening, sent{m.Time, m.Method})
			}
			continue
		}
		k, seen := index[m.Session]
		if !seen {
			k = -1
			if len(index) > 0 {
				out, k = append(out, opening), len(out)
			}
			index[m.Session], opening = k, nil
		}
		if k >= 0 && client {
			out[k] = append(out[k], sent{m.Time, m.Method})
		}
	}
	return out
}

// lostSession says how a session was lost: the server's note, and what
// the client did after (the methods it sent, in a new session or not).
func lostSession(m *LabMessage, after []string, newer bool) string {
	s := fmt.Sprintf("the HTTP server dropped session %s mid-run (HTTP 404: %s)", shortID(m.Session), m.Note)
	switch {
	case newer:
		s += "; the client opened a new session and sent " + strings.Join(after, ", ")
	case len(after) > 0:
		s += fmt.Sprintf("; the client went on without a new session (%d requests after)", len(after))
	default:
		s += "; the client sent nothing after"
	}
	return s
}

// shortID is a session id's first 8 characters, enough to tell sessions
// of one run apart.
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8] + "…"
	}
	return id
}

// shape is a request's params by their keys, one level into objects,
// with the protocol version named: what a client asked with, not its
// values (its clientInfo names it; nothing else matters here).
func shape(body json.RawMessage) string {
	var msg struct {
		Params map[string]json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Params == nil {
		return ""
	}
	return keysOf(msg.Params, true)
}

func keysOf(obj map[string]json.RawMessage, deeper bool) string {
	var parts []string
	for k, v := range obj {
		name := strings.TrimPrefix(k, "io.modelcontextprotocol/")
		var sub map[string]json.RawMessage
		var str string
		switch {
		case name == "protocolVersion" && json.Unmarshal(v, &str) == nil:
			name += "=" + str
		case deeper && json.Unmarshal(v, &sub) == nil && len(sub) > 0 && strings.HasPrefix(k, "_meta"):
			name += keysOf(sub, false)
		}
		parts = append(parts, name)
	}
	sort.Strings(parts)
	return "{" + strings.Join(slices.Compact(parts), ",") + "}"
}
