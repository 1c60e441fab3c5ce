package analyze

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/instrlab/instrlab/internal/jsonl"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// A LabMessage is one line of the lab server's message log, as far as the
// analysis needs it.
type LabMessage struct {
	Time   time.Time       `json:"time"`
	Dir    string          `json:"dir"`
	Kind   string          `json:"kind"`
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Meta   json.RawMessage `json:"meta"`
	Error  *int            `json:"error"`
	Note   string          `json:"note"`
	Raw    string          `json:"raw"`
	Bytes  int             `json:"bytes"`
	// Unread is a line the log could not read that may be a message
	// (lab.Entry.Unread).
	Unread bool `json:"unread"`
	// Session, HTTPMethod, Status and LastEventID are the HTTP
	// exchange's (lab.Entry).
	Session     string `json:"session"`
	HTTPMethod  string `json:"http_method"`
	Status      int    `json:"status"`
	LastEventID string `json:"last_event_id"`
	// Body is a whole message, where the log kept it (labvocab.TextMethods,
	// labvocab.CallMethods).
	Body json.RawMessage `json:"body"`
	// Count is how many notifications a lab.KindDropped entry stands for.
	Count int `json:"count"`
}

// ReadLabLog reads the lab's message log. A line that does not parse is a
// warning "file:line: message".
func ReadLabLog(path string) ([]LabMessage, []string, error) {
	f, err := jsonl.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("opening lab log: %w", err)
	}
	defer f.Close()
	msgs, warnings := jsonl.Decode[LabMessage](f, path)
	return msgs, warnings, nil
}

// Handshake is what the lab's log says about how the client connected.
type Handshake struct {
	// Methods lists the methods the server received, in order.
	Methods []string `json:"methods"`
	// DiscoverAnswer says how the server answered the first
	// server/discover: "result", "error -32601", or "none".
	DiscoverAnswer string `json:"discover_answer,omitempty"`
	// ProbeToFallbackMS is the time from the first server/discover to the
	// first initialize, when both were received.
	ProbeToFallbackMS *float64 `json:"probe_to_fallback_ms,omitempty"`
	InitializeSent    bool     `json:"initialize_sent"`
	// Ready is when the server sent the reply that completed the handshake
	// (an initialize result, or a server/discover result); zero if never.
	// A reply to a handshake request the client had cancelled first
	// (notifications/cancelled while it was pending: the client gave up on
	// the server, as Continue CLI 1.5.47 does after 60 s) completes
	// nothing.
	Ready time.Time `json:"ready,omitempty"`
	// GaveUp is when the client first cancelled its handshake: a request
	// the server had not answered yet, or one it had answered when the
	// client had sent nothing since (the reply and the cancel crossed);
	// zero if it never did. From the server's start, it is how long the
	// client waited: its budget, told by the client itself.
	GaveUp time.Time `json:"gave_up,omitzero"`
	// ProtocolVersions lists the protocol versions the client asked for,
	// in _meta or initialize params, in order of first use.
	ProtocolVersions []string `json:"protocol_versions,omitempty"`
}

// handshake summarises a message log.
func handshake(msgs []LabMessage) Handshake {
	h := Handshake{Methods: []string{}}
	var probe, init time.Time
	var probeID string
	// pending are the handshake requests not yet answered, by id;
	// cancelled those the client cancelled before their reply. Evidence
	// from before the log kept a cancel's body has none, so a cancel takes
	// every pending one (the client sends nothing else before its
	// handshake completes).
	pending, cancelled := map[string]bool{}, map[string]bool{}
	// handshaking is set from a handshake request to the client's next
	// message: a cancel then can only be of the handshake, even one the
	// server has just answered (the reply and the cancel crossed).
	handshaking := false
	for _, m := range msgs {
		switch m.Dir {
		case "recv":
			if m.Method == "" {
				continue
			}
			h.Methods = append(h.Methods, m.Method)
			switch m.Method {
			case labvocab.Cancelled:
				if (len(pending) > 0 || handshaking) && h.GaveUp.IsZero() {
					h.GaveUp = m.Time
				}
				for id := range pending {
					cancelled[id] = true
				}
				clear(pending)
			case "server/discover":
				handshaking = true
				pending[string(m.ID)] = true
				if probe.IsZero() {
					probe, probeID = m.Time, string(m.ID)
					h.DiscoverAnswer = "none"
				}
			case "initialize":
				handshaking = true
				pending[string(m.ID)] = true
				h.InitializeSent = true
				if init.IsZero() {
					init = m.Time
				}
			default:
				handshaking = false
			}
			var meta map[string]json.RawMessage
			if json.Unmarshal(m.Meta, &meta) == nil {
				var v string
				if json.Unmarshal(meta["io.modelcontextprotocol/protocolVersion"], &v) == nil && v != "" && !contains(h.ProtocolVersions, v) {
					h.ProtocolVersions = append(h.ProtocolVersions, v)
				}
			}
		case "send":
			handshakeReply := m.Method == "initialize" || m.Method == "server/discover"
			id := string(m.ID)
			late := handshakeReply && cancelled[id] && !pending[id]
			if handshakeReply {
				delete(pending, id)
				delete(cancelled, id)
			}
			if h.Ready.IsZero() && m.Error == nil && m.Kind != lab.KindError && handshakeReply && !late {
				h.Ready = m.Time
			}
			if probeID != "" && string(m.ID) == probeID && h.DiscoverAnswer == "none" {
				if m.Error != nil {
					h.DiscoverAnswer = fmt.Sprintf("error %d", *m.Error)
				} else {
					h.DiscoverAnswer = "result"
				}
			}
		}
	}
	if !probe.IsZero() && !init.IsZero() {
		ms := float64(init.Sub(probe).Microseconds()) / 1000
		h.ProbeToFallbackMS = &ms
	}
	return h
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
