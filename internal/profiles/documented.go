package profiles

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// A Documented limit is one a model API's provider documents for what a
// client sends it. A client that passes a server's text past it may be
// refused online, which a run against instrlab's fake API cannot show:
// it is documented, never measured, and check says so apart from what
// was measured.
type Documented struct {
	// API is the model API it holds for, as a profile names the one its
	// requests used (Profile.API).
	API string
	// Provider is who documents it; What what it limits
	// (DocumentedToolName).
	Provider, What string
	// Max is the most characters allowed; Allowed says which ones, and
	// First what the first must be ("" for any of Allowed).
	Max            int
	Allowed, First string
	allowed, first func(rune) bool
	// Source is where the provider documents it: the package of its own
	// SDK, generated from its API's specification, the file and the
	// field.
	Source string
}

// What a Documented limit limits.
const DocumentedToolName = "tool name"

func asciiLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

func asciiAlnum(r rune) bool { return asciiLetter(r) || r >= '0' && r <= '9' }

// DocumentedLimits are the limits the providers of the model APIs the
// pinned clients use document, read in their SDKs' types (2026-12-06).
// Anthropic's SDK (@anthropic-ai/sdk 0.93.0, Tool.name) and OpenAI's
// Responses API (openai 7.60.0, FunctionTool.name) document none for a
// tool's name.
var DocumentedLimits = []Documented{
	{API: "openai-chat", Provider: "OpenAI", What: DocumentedToolName, Max: 64,
		Allowed: "a-z, A-Z, 0-9, _ and -",
		allowed: func(r rune) bool { return asciiAlnum(r) || r == '_' || r == '-' },
		Source:  "npm openai 7.60.0, resources/shared.d.ts, FunctionDefinition.name"},
	{API: "gemini", Provider: "Google", What: DocumentedToolName, Max: 128,
		Allowed: "a-z, A-Z, 0-9, _, ., : and -", First: "a letter or _",
		allowed: func(r rune) bool { return asciiAlnum(r) || strings.ContainsRune("_.:-", r) },
		first:   func(r rune) bool { return asciiLetter(r) || r == '_' },
		Source:  "npm @google/genai 2.32.0, dist/genai.d.ts, FunctionDeclaration.name"},
}

// DocumentedFor lists the limits documented for api's what.
func DocumentedFor(api, what string) []Documented {
	var out []Documented
	for _, d := range DocumentedLimits {
		if d.API == api && d.What == what {
			out = append(out, d)
		}
	}
	return out
}

// Says is the limit in a few words: "tool names of at most 64
// characters, only a-z, A-Z, 0-9, _ and -".
func (d Documented) Says() string {
	s := fmt.Sprintf("%ss of at most %d characters, only %s", d.What, d.Max, d.Allowed)
	if d.First != "" {
		s += ", starting with " + d.First
	}
	return s
}

// Breaks says how s breaks the limit ("70 characters", "has \".\"",
// "starts with \"1\""), "" when it keeps to it.
func (d Documented) Breaks(s string) string {
	var why, bad []string
	if n := utf8.RuneCountInString(s); n > d.Max {
		why = append(why, fmt.Sprintf("%d characters", n))
	}
	for i, r := range s {
		if i == 0 && d.first != nil && !d.first(r) {
			why = append(why, fmt.Sprintf("starts with %q", string(r)))
		}
		if q := fmt.Sprintf("%q", string(r)); !d.allowed(r) && !slices.Contains(bad, q) {
			bad = append(bad, q)
		}
	}
	if len(bad) > 0 {
		why = append(why, "has "+strings.Join(bad, ", "))
	}
	return strings.Join(why, "; ")
}
