package analyze

import (
	"strings"
	"unicode"

	"github.com/instrlab/instrlab/internal/fakeapi"
)

// Where a text of a request names a tool: before its description in a
// listing, alone on its line in a list of deferred tools, or by its
// server's namespace, and the list that holds the name.

// maxNameGap is how far before a description a listing may name its tool
// (as in `"mcp__lab__echo": "` or `echo - `).
const maxNameGap = 24

// namedBefore reports whether a token naming the tool ends at most
// maxNameGap bytes before offset i of text, with only punctuation and
// space between.
func namedBefore(text string, i int, name string) bool {
	from := max(0, i-maxNameGap-len(name))
	for j := range indexes(text[from:i], name) {
		gap := text[from+j+len(name) : i]
		if _, ok := tokenAt(text, from+j, name); ok && !strings.ContainsFunc(gap, unicode.IsLetter) && !strings.ContainsFunc(gap, unicode.IsDigit) {
			return true
		}
	}
	return false
}

// namedAlone finds the tool named in text the way a list of deferred
// tools names it: behind a server prefix (mcp__lab__echo), or alone on its
// line. A bare name inside a sentence (a server's instructions that
// mention the tool) does not count.
func namedAlone(text, name string) (int, bool) {
	for j := range indexes(text, name) {
		tok, ok := tokenAt(text, j, name)
		if !ok {
			continue
		}
		start := j + len(name) - len(tok)
		if tok != name {
			return start, true
		}
		end := strings.IndexByte(text[j:], '\n')
		if end < 0 {
			end = len(text) - j
		}
		line := text[lineStart(text, start) : j+end]
		if strings.Trim(line, " \t-*•`\"'") == name {
			return start, true
		}
	}
	return 0, false
}

// namespaceLine finds a line of text that starts with the namespace ns
// and a colon, the server's text after it: Codex 0.171.0 lists "Deferred
// tool namespaces:" / "- mcp__lab: " and the server's instructions (cut).
// It returns where the namespace starts.
func namespaceLine(text, ns string) (int, bool) {
	for j := range indexes(text, ns+":") {
		start := lineStart(text, j)
		if strings.Trim(text[start:j], " \t-*•") == "" {
			return j, true
		}
	}
	return 0, false
}

// tokenAt returns the name-like token that ends with name at offset j of
// text, when the client's name it forms is the tool's (toolNamed).
func tokenAt(text string, j int, name string) (string, bool) {
	end := j + len(name)
	if end < len(text) {
		c := text[end]
		next := byte(' ')
		if end+1 < len(text) {
			next = text[end+1]
		}
		if wordByte(c) || ((c == '.' || c == '/') && wordByte(next)) {
			return "", false // the name goes on
		}
	}
	k := j
	for k > 0 && (wordByte(text[k-1]) || text[k-1] == '.' || text[k-1] == '/') {
		k--
	}
	tok := text[k:end]
	return tok, fakeapi.ToolNamed(tok, name)
}

func wordByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// listStart is the offset of the first line of the list that holds
// offset i: the lines before it up to a blank line, a heading or tag
// (# or <) or a line ending in a colon, which the wrapper then names.
func listStart(text string, i int) int {
	start := lineStart(text, i)
	for start > 0 {
		prev := lineStart(text, start-1)
		t := strings.TrimSpace(text[prev : start-1])
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "<") || strings.HasSuffix(t, ":") {
			break
		}
		start = prev
	}
	return start
}

// lineStart is the offset of the start of the line holding offset i.
func lineStart(text string, i int) int {
	return strings.LastIndexByte(text[:i], '\n') + 1
}
