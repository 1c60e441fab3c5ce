package fakeapi

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// An Answer is what a perfect reader of a request reports: the codewords
// after "BEGIN codeword:" and "END codeword:" and the largest [at N] marker
// found in the context. Empty fields mean not found.
type Answer struct {
	Begin string `json:"begin"`
	End   string `json:"end"`
	Last  int    `json:"last"` // -1 when no marker was found
}

// The regexps are compiled on first use, not at every start of instrlab.
var (
	beginRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`BEGIN codeword: ([\p{L}\p{N}]+-[0-9]{4})`) })
	endRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`END codeword: ([\p{L}\p{N}]+-[0-9]{4})`) })
	markerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[at ([0-9]{1,9})\]`) })
)

// Read reads ctx as the reader does. Text equal to prompt, the user's own
// prompt, is skipped wherever it occurs, so a prompt that quotes the marker
// syntax cannot answer itself. Where several codewords occur, the first
// one in context order is reported.
func Read(ctx Context, prompt string) Answer {
	a := Answer{Last: -1}
	for _, s := range ctx {
		t := s.Text
		if prompt != "" {
			t = strings.ReplaceAll(t, prompt, "")
		}
		if a.Begin == "" {
			if m := beginRE().FindStringSubmatch(t); m != nil {
				a.Begin = m[1]
			}
		}
		if a.End == "" {
			if m := endRE().FindStringSubmatch(t); m != nil {
				a.End = m[1]
			}
		}
		for _, m := range markerRE().FindAllStringSubmatch(t, -1) {
			if n, err := strconv.Atoi(m[1]); err == nil && n > a.Last {
				a.Last = n
			}
		}
	}
	return a
}

// Line formats the answer as the reply line the seed's prompt asks for.
func (a Answer) Line() string {
	last := "NONE"
	if a.Last >= 0 {
		last = strconv.Itoa(a.Last)
	}
	return fmt.Sprintf("BEGIN=%s END=%s LAST=%s", orNone(a.Begin), orNone(a.End), last)
}

func orNone(s string) string {
	if s == "" {
		return "NONE"
	}
	return s
}

// ParseLine reads a reply line written in the seed's format, as a model
// (or the reader) answered. It reports false when line has no BEGIN=.
func ParseLine(line string) (Answer, bool) {
	a := Answer{Last: -1}
	i := strings.Index(line, "BEGIN=")
	if i < 0 {
		return a, false
	}
	for _, f := range strings.Fields(line[i:]) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || v == "NONE" {
			continue
		}
		switch k {
		case "BEGIN":
			a.Begin = v
		case "END":
			a.End = v
		case "LAST":
			if n, err := strconv.Atoi(strings.TrimRight(v, ".")); err == nil {
				a.Last = n
			}
		}
	}
	return a, true
}
