package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
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

// firstRequestMap reads the first model request of r from its evidence.
func firstRequestMap(r *matrix.Result) requestMap {
	if r.First == nil {
		return requestMap{Why: "no model request was recorded"}
	}
	q, err := fakeapi.ReadRequest(evidence.RunDir(r.Dir).Requests(), r.First.Seq)
	if err != nil {
		return requestMap{Why: err.Error()}
	}
	api, ok := fakeapi.Lookup(q.API)
	if !ok {
		return requestMap{Why: fmt.Sprintf("request %d: unknown API %q", q.Seq, q.API)}
	}
	ctx, err := api.Context(q.Body)
	if err != nil {
		return requestMap{Why: fmt.Sprintf("request %d: %v", q.Seq, err)}
	}
	m := requestMap{Seq: r.First.Seq, Chars: ctx.Chars()}
	best := r.First.Best()
	at := 0
	for _, s := range ctx {
		n := utf8.RuneCountInString(s.Text)
		last := len(m.Parts) - 1
		if last >= 0 && s.Kind == fakeapi.KindToolDefinition && m.Parts[last].Kind == s.Kind {
			m.Parts[last].Count++
			m.Parts[last].Chars += n
		} else {
			m.Parts = append(m.Parts, part{Kind: s.Kind, Count: 1, Path: s.Path, Chars: n, From: at})
		}
		if best != nil && m.Text == nil && s.Path == best.Path {
			if i := strings.Index(s.Text, textHead(r, best.Era)); i >= 0 {
				k := len(m.Parts) - 1
				m.Parts[k].HoldsText = true
				m.Text = &textSpot{Part: k, From: at + utf8.RuneCountInString(s.Text[:i]), Kept: best.Kept, Path: s.Path}
			}
		}
		at += n
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

// textHead is the first sentence of the row's text of an era, as the
// analysis locates it.
func textHead(r *matrix.Result, era string) string {
	t, err := rowText(r, era)
	if err != nil {
		return "\x00"
	}
	if i := strings.Index(t.Text, ". "); i > 0 {
		return t.Text[:i+1]
	}
	return t.Text
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
		return plural(p.Count, "tool definition")
	}
	return string(p.Kind)
}
