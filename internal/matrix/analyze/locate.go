package analyze

import (
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
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
	// Reply is the reply whose text was found (initialize or discover).
	Reply lab.Reply `json:"era"`
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
}

// locate finds text, served in reply (with its begin codeword), in ctx. It
// returns every place the text's first sentence occurs.
func locate(ctx fakeapi.Context, reply lab.Reply, text string) []Placement {
	if text == "" {
		return nil
	}
	head := text
	if i := strings.Index(text, ". "); i > 0 {
		head = text[:i+1]
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
			kept, rest := commonPrefix(text, s.Text[i:])
			p := Placement{Kind: s.Kind, Path: s.Path, Reply: reply, Kept: kept, Full: kept == utf8.RuneCountInString(text),
				Suffix: firstRunes(rest, 20), Wrapper: wrapper(s.Text[:i]), Offset: utf8.RuneCountInString(s.Text[:i])}
			out = append(out, p)
			from = i + len(head)
		}
	}
	return out
}

// commonPrefix counts the runes a and b share at their start, and returns
// the rest of b.
func commonPrefix(a, b string) (int, string) {
	n, i := 0, 0
	for i < len(a) && i < len(b) {
		ra, sa := utf8.DecodeRuneInString(a[i:])
		rb, _ := utf8.DecodeRuneInString(b[i:])
		if ra != rb {
			break
		}
		i += sa
		n++
	}
	return n, b[i:]
}

func firstRunes(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
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
	first, last = firstRunes(first, 40), firstRunes(last, 40)
	if len(lines) == 1 || first == last {
		return last
	}
	return first + " … " + last
}
