package analyze

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// TruncationSuffix is the suffix a client may append where it cut a text;
// it is looked for, never assumed (Kept and Suffix report what is there).
const TruncationSuffix = "… [truncated]"

// A Placement is where one server text was found in one request.
type Placement struct {
	// Kind is the segment's kind; Path its place in the body.
	Kind fakeapi.Kind `json:"kind"`
	Path string       `json:"path"`
	// Reply is the reply whose text was found (initialize or discover);
	// its key was "era" before results.v2.json (UnmarshalJSON).
	Reply lab.Reply `json:"reply"`
	// Kept is how many characters of the server's text arrived, from its
	// start; Full when all of them did.
	Kept int  `json:"kept"`
	Full bool `json:"full"`
	// Suffix is the text right after the kept part, up to 20 characters
	// (a truncation mark, if the client added one).
	Suffix string `json:"suffix,omitempty"`
	// Wrapper is the segment's text before the server text: its first line
	// and the line just before the text, as in "<system-reminder> … ## lab".
	Wrapper string `json:"wrapper,omitempty"`
	// Offset is where the text starts in its segment, in characters.
	Offset int `json:"offset"`
	// Indent is what the client put before every line of the text, as
	// opencode 1.18.33 indents a server's instructions by four spaces
	// inside its <server> tag: the lines count as kept through it.
	Indent string `json:"indent,omitempty"`
	// Trimmed is how many characters of white space at the text's start
	// or end the client removed: not a cut (the text is Full when
	// nothing else is missing), and not in Kept.
	Trimmed int `json:"trimmed,omitempty"`
}

// UnmarshalJSON reads a placement, and its reply under its key before
// results.v2.json, "era".
func (p *Placement) UnmarshalJSON(b []byte) error {
	type plain Placement
	var v struct {
		plain
		Era lab.Reply `json:"era"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*p = Placement(v.plain)
	if p.Reply == "" {
		p.Reply = v.Era
	}
	return nil
}

// locate finds text, served in reply (with its begin codeword), in ctx. It
// returns every place the text's first sentence (within its first line,
// after any white space it starts with) occurs.
func locate(ctx fakeapi.Context, reply lab.Reply, text string) []Placement {
	if text == "" {
		return nil
	}
	// The head found is the first sentence, within the first line (a
	// client may indent the lines after it), of the text without the
	// white space it starts with (a client may trim it).
	core := strings.TrimLeftFunc(text, unicode.IsSpace)
	if core == "" {
		core = text
	}
	head, _, _ := strings.Cut(core, "\n")
	if i := strings.Index(head, ". "); i > 0 {
		head = head[:i+1]
	}
	if head == "" {
		head = core
	}
	var out []Placement
	for _, s := range ctx {
		from := 0
		for {
			i := strings.Index(s.Text[from:], head)
			if i < 0 {
				break
			}
			i += from
			from = i + len(head)
			indent := lineIndent(s.Text[:i])
			m := measure(text, s.Text, i, indent)
			p := Placement{Kind: s.Kind, Path: s.Path, Reply: reply, Kept: m.kept, Full: m.full, Trimmed: m.trimmed,
				Suffix: unit.CodePoint.Prefix(m.rest, 20), Wrapper: wrapper(s.Text[:m.start]), Offset: utf8.RuneCountInString(s.Text[:m.start])}
			if m.indented {
				p.Indent = indent
			}
			out = append(out, p)
		}
	}
	return out
}

// A measured text is how much of a server's text a request holds where
// it was found: kept characters from its start, the request's text after
// them (rest), the white space at its start or end the client removed
// (trimmed), whether it is all there but that (full), where it starts in
// the request's text and whether its lines are indented.
type measured struct {
	kept, trimmed int
	rest          string
	full          bool
	start         int
	indented      bool
}

// measure compares text with seg, where text's core (text without the
// white space it starts with) was found at byte i, its lines maybe after
// indent: the white space before the core counts as kept when seg has it
// there, else as trimmed; white space that ends text and is missing where
// the rest of it was kept is trimmed; anything else missing is a cut.
func measure(text, seg string, i int, indent string) measured {
	lead := text[:len(text)-len(strings.TrimLeftFunc(text, unicode.IsSpace))]
	m := measured{start: i}
	body := text
	switch {
	case lead == "" || lead == text:
	case strings.HasSuffix(seg[:i], lead):
		m.start = i - len(lead)
	default:
		m.trimmed, body = utf8.RuneCountInString(lead), text[len(lead):]
	}
	m.kept, m.rest, m.indented = indentedPrefix(body, seg[m.start:], indent)
	left := body[keptBytes(body, m.kept):]
	if left != "" && strings.TrimSpace(left) == "" {
		m.trimmed += utf8.RuneCountInString(left)
		left = ""
	}
	m.full = left == ""
	return m
}

// keptBytes is the byte length of the first kept runes of body.
func keptBytes(body string, kept int) int {
	i := 0
	for ; kept > 0 && i < len(body); kept-- {
		_, n := utf8.DecodeRuneInString(body[i:])
		i += n
	}
	return i
}

// lineIndent is the blanks between the last line break of before and
// its end: the indent a text that starts there was put at; "" when
// something else precedes it on its line.
func lineIndent(before string) string {
	line := before[strings.LastIndexByte(before, '\n')+1:]
	if strings.Trim(line, " \t") != "" {
		return ""
	}
	return line
}

// indentedPrefix is fakeapi.CommonPrefix where b may carry indent after
// each line break of a (a blank line of a, the indent alone or nothing);
// used says whether it did.
func indentedPrefix(a, b, indent string) (n int, restB string, used bool) {
	if indent == "" {
		n, restB = fakeapi.CommonPrefix(a, b)
		return n, restB, false
	}
	for {
		line, more := a, false
		if j := strings.IndexByte(a, '\n'); j >= 0 {
			line, more = a[:j+1], true
		}
		k, rest := fakeapi.CommonPrefix(line, b)
		n += k
		if k < utf8.RuneCountInString(line) || !more {
			return n, rest, used
		}
		a, b = a[len(line):], strings.TrimPrefix(rest, indent)
		// A line of the text that has the indent of its own, sent as it
		// is: the longer match wins.
		next, _, _ := strings.Cut(a, "\n")
		if k1, _ := fakeapi.CommonPrefix(next, b); k1 < utf8.RuneCountInString(next) {
			if k2, _ := fakeapi.CommonPrefix(next, rest); k2 > k1 {
				b = rest
			}
		}
		used = used || len(b) < len(rest)
	}
}

// wrapper names what precedes a text in its segment: the first line, and
// the nearest non-empty line before the text, when they differ.
func wrapper(before string) string {
	before = strings.TrimRight(before, " \n")
	if before == "" {
		return ""
	}
	lines := strings.Split(before, "\n")
	first := strings.TrimSpace(lines[0])
	last := strings.TrimSpace(lines[len(lines)-1])
	first, last = unit.CodePoint.Prefix(first, 40), unit.CodePoint.Prefix(last, 40)
	if len(lines) == 1 || first == last {
		return last
	}
	return first + " … " + last
}
