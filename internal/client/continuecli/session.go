package continuecli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// SessionDir is where the client keeps a session per run, relative to
// HOME, beside an index named sessions.json.
const SessionDir = ".continue/sessions"

// A Session is what the client saved of a run's chat.
type Session struct {
	// Model is the model named in the usage of the last assistant message.
	Model string
	// Answer is the text of the last assistant message.
	Answer string
	// Messages counts the history entries.
	Messages int
}

type sessionFile struct {
	History []struct {
		Message struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
			Usage   *struct {
				Model string `json:"model"`
			} `json:"usage"`
		} `json:"message"`
	} `json:"history"`
}

// ParseSession reads one session file. A file that is not a session is a
// warning "name: message", as is a message whose content cannot be read.
func ParseSession(r io.Reader, name string) (Session, []string) {
	var s Session
	var f sessionFile
	if err := json.NewDecoder(r).Decode(&f); err != nil {
		return s, []string{fmt.Sprintf("%s: %v", name, err)}
	}
	var w []string
	s.Messages = len(f.History)
	for i, h := range f.History {
		if h.Message.Role != "assistant" {
			continue
		}
		text, err := contentText(h.Message.Content)
		if err != nil {
			w = append(w, fmt.Sprintf("%s: history[%d]: %v", name, i, err))
			continue
		}
		s.Answer = text
		if h.Message.Usage != nil && h.Message.Usage.Model != "" {
			s.Model = h.Message.Usage.Model
		}
	}
	return s, w
}

// contentText is a message's text: a string, or the text parts of an
// array of parts.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content is neither text nor parts: %w", err)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}
