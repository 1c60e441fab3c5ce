package report

import (
	"fmt"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
)

// A requestMap is the first model request of one run, as the model reads
// it: its parts in order (system prompt, messages by role, tool
// definitions), each sized, and where the server's text sits in them.
type requestMap struct {
	Seq   int
	Chars int
	Parts []part
	// Text is the server's text in the request, nil when it is not there.
	Text *textSpot
	// Why is set when there is no map to draw.
	Why string
}

// A part is a run of segments of one kind (consecutive tool definitions
// are one part).
type part struct {
	Kind      fakeapi.Kind
	Count     int
	Path      string
	Chars     int
	From      int // characters of the request before it
	X, W      float64
	HoldsText bool
}

// A textSpot is where the server's text sits in the request.
type textSpot struct {
	Part       int
	From, Kept int // characters of the request before the text; characters kept
	Path       string
	X, W       float64
	Share      string
}

const mapWidth = 600.0

// firstRequestMap draws the first model request of r from its parts.
func firstRequestMap(r *analyze.Result) requestMap {
	if r.First == nil {
		return requestMap{Why: "no model request was recorded"}
	}
	if len(r.First.Parts) == 0 {
		return requestMap{Why: fmt.Sprintf("request %d: no text decoded", r.First.Seq)}
	}
	m := requestMap{Seq: r.First.Seq, Chars: r.First.Chars}
	best := r.First.Best()
	at := 0
	for _, p := range r.First.Parts {
		m.Parts = append(m.Parts, part{Kind: p.Kind, Count: p.Count, Path: p.Path, Chars: p.Chars, From: at})
		if best != nil && m.Text == nil && p.Path == best.Path {
			k := len(m.Parts) - 1
			m.Parts[k].HoldsText = true
			m.Text = &textSpot{Part: k, From: at + best.Offset, Kept: best.Kept, Path: best.Path}
		}
		at += p.Chars
	}
	if m.Chars == 0 {
		return m
	}
	scale := mapWidth / float64(m.Chars)
	for i := range m.Parts {
		m.Parts[i].X, m.Parts[i].W = float64(m.Parts[i].From)*scale, max(float64(m.Parts[i].Chars)*scale, 1)
	}
	if t := m.Text; t != nil {
		t.X, t.W = float64(t.From)*scale, max(float64(t.Kept)*scale, 2)
		t.Share = fmt.Sprintf("%.1f%%", 100*float64(t.Kept)/float64(m.Chars))
	}
	return m
}

// partName says what a part is, for a person.
func partName(p part) string {
	switch p.Kind {
	case fakeapi.KindSystem:
		return "system prompt"
	case fakeapi.KindSystemMessage:
		return "system message"
	case fakeapi.KindDeveloperMessage:
		return "developer message"
	case fakeapi.KindUserTurn:
		return "user turn"
	case fakeapi.KindAssistantTurn:
		return "assistant turn"
	case fakeapi.KindToolResult:
		return "tool result"
	case fakeapi.KindToolDefinition:
		return table.Plural(p.Count, "tool definition")
	}
	return string(p.Kind)
}
