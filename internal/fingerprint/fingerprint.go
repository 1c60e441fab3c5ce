package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/table"
)

// digestLen is how many hex digits of a SHA-256 a fingerprint keeps: 48
// bits, enough to tell two texts of one server apart, short enough to
// read aloud.
const digestLen = 12

// A Text is one text a server sent: its length in characters (Unicode
// code points) and the first hex digits of its SHA-256.
type Text struct {
	Chars  int    `json:"chars"`
	SHA256 string `json:"sha256"`
}

// Of is s's fingerprint.
func Of(s string) Text {
	return Text{Chars: utf8.RuneCountInString(s), SHA256: digest([]byte(s))}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:digestLen]
}

// String is "2,904 characters, sha256 1f3a…": how check and run name a
// text.
func (t Text) String() string {
	return fmt.Sprintf("%s characters, sha256 %s", table.Num(t.Chars), t.SHA256)
}

// A Tool is one tool of a list as the fingerprint reads it: its name and
// description, the texts a client shows the model.
type Tool struct{ Name, Description string }

// Tools is a tool list's fingerprint: how many tools, and a digest of
// their names and descriptions in the order sent.
type Tools struct {
	Count  int    `json:"count"`
	SHA256 string `json:"sha256"`
}

// ToolsOf is the fingerprint of a tool list.
func ToolsOf(ts []Tool) Tools {
	var b strings.Builder
	for _, t := range ts {
		// A NUL cannot be told from a name's own characters only if the
		// name holds one; the lengths make the split unambiguous.
		fmt.Fprintf(&b, "%d:%s%d:%s", len(t.Name), t.Name, len(t.Description), t.Description)
	}
	return Tools{Count: len(ts), SHA256: digest([]byte(b.String()))}
}

// String is "3 tools, sha256 9c0e…".
func (t Tools) String() string {
	noun := "tools"
	if t.Count == 1 {
		noun = "tool"
	}
	return fmt.Sprintf("%s %s, sha256 %s", table.Num(t.Count), noun, t.SHA256)
}

// EnvNames are the names of the variables a server started with environ
// (NAME=VALUE entries, as os.Environ gives them) and extra set on top has:
// sorted, each once. The values are never kept: one may be a credential.
func EnvNames(environ []string, extra map[string]string) []string {
	var names []string
	for _, kv := range environ {
		if k, _, ok := strings.Cut(kv, "="); ok && k != "" {
			names = append(names, k)
		}
	}
	for k := range extra {
		names = append(names, k)
	}
	slices.Sort(names)
	return slices.Compact(names)
}
