package surface

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/unit"
)

// Found says where one part of a result arrived in the request that
// followed the call.
type Found struct {
	Part string `json:"part"`
	// SentForm is the form the server sent the part in; Form the form it
	// reached the model in (FormText, FormJSON, FormImage), empty when it
	// did not.
	SentForm string `json:"sent_form"`
	Sent     int    `json:"sent"`
	Reached  bool   `json:"reached"`
	Form     string `json:"form,omitempty"`
	// Where is the kind of the segment it was found in, Path its place in
	// the body; InResult says the segment is the tool result that answers
	// the call (rather than, say, a user turn after it).
	Where    fakeapi.Kind `json:"where,omitempty"`
	Path     string       `json:"path,omitempty"`
	InResult bool         `json:"in_result,omitempty"`
	// Kept characters of the part arrived from its start (all of them when
	// Full); Suffix is what follows the kept part, up to 40 characters: a
	// client's mark where it cut.
	Kept   int    `json:"kept,omitempty"`
	Full   bool   `json:"full,omitempty"`
	Suffix string `json:"suffix,omitempty"`
	// Trimmed is how many characters of white space the part ended with
	// that the client removed: the part is Full all the same.
	Trimmed int `json:"trimmed,omitempty"`
	// SentUTF16 and SentBytes are the part's length in UTF-16 units and
	// UTF-8 bytes where they are not Sent (text outside ASCII), so that
	// a limit can be judged in what a client counts; 0: as Sent.
	SentUTF16 int `json:"sent_utf16,omitempty"`
	SentBytes int `json:"sent_bytes,omitempty"`
	// SameAs names another part of the result with the same text (a
	// content text that is the structuredContent serialized): found or
	// not, the two are one text in the request, and which of them the
	// client passed on cannot be told.
	SameAs string `json:"same_as,omitempty"`
}

// headRunes is how much of a part's start is looked for; what follows is
// compared rune by rune, so a cut later is measured.
const headRunes = 40

// Locate finds p in ctx, preferring the tool result that answers the call
// callID, then the place that kept the most of it.
func Locate(ctx fakeapi.Context, callID string, p Part) Found {
	f := locate(ctx, callID, p)
	if u := unit.UTF16.Count(p.Needle); u != p.Sent {
		f.SentUTF16 = u
	}
	if b := len(p.Needle); b != p.Sent {
		f.SentBytes = b
	}
	return f
}

func locate(ctx fakeapi.Context, callID string, p Part) Found {
	f := Found{Part: p.Name, SentForm: p.Form, Sent: p.Sent}
	better := func(g Found) bool {
		switch {
		case !f.Reached:
			return true
		case g.InResult != f.InResult:
			return g.InResult
		}
		return g.Kept > f.Kept
	}
	if p.Needle == "" {
		return f
	}
	for _, s := range ctx {
		inResult := s.Kind == fakeapi.KindToolResult && s.Call == callID && callID != ""
		if s.Data != "" && p.Form == FormImage && strings.Contains(s.Data, p.Needle) {
			g := Found{Part: p.Name, SentForm: p.Form, Sent: p.Sent, Reached: true, Form: FormImage, Where: s.Kind, Path: s.Path,
				InResult: inResult, Kept: p.Sent, Full: true}
			if better(g) {
				f = g
			}
			continue
		}
		for _, form := range fakeapi.Forms(p.Needle) {
			// The head looked for is the part's start without the white
			// space it ends with, which a client may remove.
			head := unit.CodePoint.Prefix(form.Text, headRunes)
			if core := strings.TrimRightFunc(p.Needle, unicode.IsSpace); core != "" && core != p.Needle {
				if form.Escaped {
					core = fakeapi.JSONEscape(core)
				}
				head = unit.CodePoint.Prefix(core, headRunes)
			}
			for from := 0; ; {
				i := strings.Index(s.Text[from:], head)
				if i < 0 {
					break
				}
				i += from
				from = i + len(head)
				kept, rest := fakeapi.CommonPrefix(form.Text, s.Text[i:])
				kept = form.Runes(kept)
				g := Found{Part: p.Name, SentForm: p.Form, Sent: p.Sent, Reached: true, Form: foundForm(s.Text, form.Escaped),
					Where: s.Kind, Path: s.Path, InResult: inResult, Kept: kept, Full: kept == p.Sent}
				if left := p.Needle[len(unit.CodePoint.Prefix(p.Needle, kept)):]; !g.Full && strings.TrimSpace(left) == "" {
					// White space the part ended with, which the client
					// removed: whole, not cut.
					g.Full, g.Trimmed = true, p.Sent-kept
				}
				if !g.Full {
					// Inside serialized JSON, what follows is escaped even
					// when the part needed no escape.
					g.Suffix = suffix(rest, g.Form == FormJSON)
				}
				if better(g) {
					f = g
				}
			}
		}
	}
	return f
}

// suffix is the first 40 characters of rest, what followed a cut part:
// decoded from a JSON string's escapes when the part was found inside
// serialized JSON (Gemini CLI's functionResponse), so that a client's
// marker reads as it wrote it.
func suffix(rest string, escaped bool) string {
	if escaped {
		head := unit.CodePoint.Prefix(rest, 80)
		for range 6 {
			var s string
			if json.Unmarshal([]byte(`"`+head+`"`), &s) == nil {
				return unit.CodePoint.Prefix(s, 40)
			}
			_, n := utf8.DecodeLastRuneInString(head)
			head = head[:len(head)-n]
		}
	}
	return unit.CodePoint.Prefix(rest, 40)
}

// foundForm says whether a segment's text is serialized JSON (or the part
// was found escaped as in a JSON string) or plain text.
func foundForm(text string, escaped bool) string {
	t := strings.TrimSpace(text)
	if escaped || (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		return FormJSON
	}
	return FormText
}
