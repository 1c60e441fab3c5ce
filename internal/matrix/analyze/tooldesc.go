package analyze

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/unit"
)

// How a tool reached the model (ToolFacts.Via). Clients that defer MCP
// tools behind a search tool send no definition for them in the first
// request: Claude Code names them, one a line, in a system message; Qwen
// Code lists each name with its quoted description in a user turn. Both
// are measured here, so that a deferred tool is not reported as lost.
const (
	ViaDefinition = "definition" // a tool definition of the request
	ViaListing    = "listing"    // named, with its description, in a text of the request
	ViaNameOnly   = "name only"  // named in a text of the request, its description not sent
	// ViaNamespace: the tool is not named, only its server's namespace
	// (Codex 0.169.0 lists "Deferred tool namespaces: - mcp__lab").
	ViaNamespace = "server namespace"
)

// ToolFacts say what became of one tool's description in the first model
// request.
type ToolFacts struct {
	Name string `json:"name"`
	Sent int    `json:"sent"` // characters (code points) of the server's description
	// Via says how the tool reached the model; empty when it did not.
	Via string `json:"via,omitempty"`
	// Kind and Wrapper are where: the segment's kind and the lines
	// before the tool's line (see wrapper).
	Kind    fakeapi.Kind `json:"kind,omitempty"`
	Wrapper string       `json:"wrapper,omitempty"`
	// Found is true when some of the description arrived (Via is a
	// definition or a listing).
	Found bool `json:"found"`
	Kept  int  `json:"kept"` // characters kept from the start
	Full  bool `json:"full"`
	// Suffix is what follows the kept part, up to 20 characters (a
	// truncation mark such as "...", if the client added one).
	Suffix string `json:"suffix,omitempty"`
	// Lost names where the description was cut, when it was.
	Lost string `json:"lost,omitempty"`
	// As is the name of the definition that holds the description, the
	// client's for the tool (with its prefix, cut or renamed: a
	// definition is found by its description's start as well as by name).
	As string `json:"as,omitempty"`
	// Trimmed is how many characters of white space at the description's
	// start or end the client removed: not a cut, and not in Kept.
	Trimmed int `json:"trimmed,omitempty"`
}

// listed is a description found in a listing (a text, where it may be
// escaped) after the white space it starts with, lead, which counts as
// trimmed: kept characters of the rest of it, with any white space that
// ends it and is missing trimmed too.
func listed(desc, lead string, kept int, rest string) measured {
	body := desc[len(lead):]
	m := measured{kept: kept, rest: rest, trimmed: utf8.RuneCountInString(lead)}
	if left := body[keptBytes(body, kept):]; strings.TrimSpace(left) == "" {
		m.trimmed += utf8.RuneCountInString(left)
		m.full = true
	}
	return m
}

// locateTools finds each tool's description in ctx: in the tool
// definition that is the tool's (by its whole name as the client made it
// of the server's tool, fakeapi.Names), or in a text that lists it by
// name, keeping the place that kept the most; else its name alone; else
// the namespace of its server (named server in the client's config, or
// renamed: fakeapi.Namespaces) alone.
func locateTools(ctx fakeapi.Context, tools []NamedText, server string) []ToolFacts {
	var out []ToolFacts
	names := fakeapi.Names{Server: server}
	for _, t := range tools {
		names.Tools = append(names.Tools, t.Name)
	}
	for _, t := range tools {
		f := ToolFacts{Name: t.Name, Sent: utf8.RuneCountInString(t.Description)}
		f.inDefinition(ctx, names, t)
		f.inListings(ctx, t)
		f.byName(ctx, t.Name, server)
		if f.Full {
			f.Suffix = ""
		}
		if f.Found && !f.Full {
			f.Lost = LostTail(t.Description, f.Kept+f.Trimmed) // Trimmed, when cut, is white space it started with
		}
		out = append(out, f)
	}
	return out
}

// keep records m, found via in segment s behind wrapper wrap, as where
// the description arrived when it kept more than the place kept so far
// (or as much, and all of it).
func (f *ToolFacts) keep(m measured, via string, s fakeapi.Segment, wrap string) {
	if !f.Found || m.kept > f.Kept || m.kept == f.Kept && m.full && !f.Full {
		f.Found, f.Kept, f.Trimmed, f.Full, f.Suffix, f.Via, f.Kind, f.Wrapper = true, m.kept, m.trimmed, m.full, unit.CodePoint.Prefix(m.rest, 20), via, s.Kind, wrap
	}
}

// inDefinition measures the description of t in the tool definition of
// ctx that names t (names.Find), or that holds its description's start.
func (f *ToolFacts) inDefinition(ctx fakeapi.Context, names fakeapi.Names, t NamedText) {
	s, ok := names.Find(ctx, t.Name, fakeapi.DescriptionKey(t.Description))
	if !ok {
		return
	}
	desc, ok := definitionDescription(s.Text, s.Name)
	if !ok {
		desc = s.Text // a client that sends the description as the segment itself
	}
	starts := []string{desc}
	if !names.Named(s, t.Name) {
		// A definition that holds the description without naming the
		// tool (code mode: opencode's execute lists the server's tools
		// with their descriptions): the description is measured where
		// it starts in it, at the start that keeps the most
		// (list_directory's and list_directory_with_sizes' start alike).
		starts = nil
		for i := range indexes(desc, unit.CodePoint.Prefix(strings.TrimSpace(t.Description), headRunes)) {
			starts = append(starts, desc[i:])
		}
		if len(starts) == 0 {
			starts = []string{desc}
		}
	}
	for _, d := range starts {
		f.keep(measure(t.Description, d, len(d)-len(strings.TrimLeftFunc(d, unicode.IsSpace)), ""), ViaDefinition, s, "")
	}
	f.As = s.Name
}

// inListings measures the description of t in every text of ctx that
// lists it after its name (namedBefore), as it is or escaped as a JSON
// string. A description of white space alone is not looked for.
func (f *ToolFacts) inListings(ctx fakeapi.Context, t NamedText) {
	lead := t.Description[:len(t.Description)-len(strings.TrimLeftFunc(t.Description, unicode.IsSpace))]
	if t.Description == lead {
		return
	}
	body := t.Description[len(lead):]
	for _, s := range ctx {
		if s.Kind == fakeapi.KindToolDefinition {
			continue
		}
		for _, form := range fakeapi.Forms(body) {
			core, formLead := strings.TrimRightFunc(body, unicode.IsSpace), lead
			if form.Escaped {
				core, formLead = fakeapi.JSONEscape(core), fakeapi.JSONEscape(lead)
			}
			head := unit.CodePoint.Prefix(core, headRunes)
			for i := range indexes(s.Text, head) {
				if !namedBefore(s.Text, i, t.Name) {
					continue
				}
				kept, rest := fakeapi.CommonPrefix(form.Text, s.Text[i:])
				m := listed(t.Description, lead, form.Runes(kept), rest)
				if lead != "" && strings.HasSuffix(s.Text[:i], formLead) { // kept, not trimmed
					m.kept, m.trimmed = m.kept+utf8.RuneCountInString(lead), m.trimmed-utf8.RuneCountInString(lead)
				}
				f.keep(m, ViaListing, s, wrapper(s.Text[:listStart(s.Text, i)]))
			}
		}
	}
}

// byName says how a tool whose description was found nowhere reached the
// model: by its name alone in a text (namedAlone), else by its server's
// namespace (fakeapi.Namespaces) alone, in the first segment that names
// it.
func (f *ToolFacts) byName(ctx fakeapi.Context, name, server string) {
	if f.Via != "" {
		return
	}
	alones := []struct{ name, via string }{{name, ViaNameOnly}}
	for _, ns := range fakeapi.Namespaces(server) {
		alones = append(alones, struct{ name, via string }{ns, ViaNamespace})
	}
	for _, alone := range alones {
		for _, s := range ctx {
			i, ok := namedAlone(s.Text, alone.name)
			if !ok && alone.via == ViaNamespace {
				i, ok = namespaceLine(s.Text, alone.name)
			}
			if ok && s.Kind != fakeapi.KindToolDefinition {
				f.Via, f.Kind, f.Wrapper = alone.via, s.Kind, wrapper(s.Text[:listStart(s.Text, i)])
				return
			}
		}
	}
}

// namesLabTool says whether ctx names one of the lab's own tools in a
// text, alone on its line or behind the client's prefix (not a tool
// definition, and not its namespace alone).
func namesLabTool(ctx fakeapi.Context, server string) bool {
	tools := make([]NamedText, len(labvocab.OwnTools))
	for i, name := range labvocab.OwnTools {
		tools[i] = NamedText{Name: name}
	}
	for _, f := range locateTools(ctx, tools, server) {
		if f.Via == ViaNameOnly {
			return true
		}
	}
	return false
}

// indexes yields the byte offsets of every occurrence of sub in s.
func indexes(s, sub string) func(func(int) bool) {
	return func(yield func(int) bool) {
		if sub == "" {
			return
		}
		for from := 0; ; {
			i := strings.Index(s[from:], sub)
			if i < 0 || !yield(from+i) {
				return
			}
			from += i + len(sub)
		}
	}
}

// headRunes is how much of a description's start is looked for in a text;
// what follows is compared rune by rune, so a cut later is measured.
const headRunes = 20

// definitionDescription finds the description of the tool named name in a
// tool definition's JSON, at any depth (Anthropic's top level, OpenAI's
// function object, a namespace's tools).
func definitionDescription(text, name string) (string, bool) {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return "", false
	}
	var walk func(v any) (string, bool)
	walk = func(v any) (string, bool) {
		switch x := v.(type) {
		case map[string]any:
			n, _ := x["name"].(string)
			if d, ok := x["description"].(string); ok && n != "" && (fakeapi.ToolNamed(n, name) || fakeapi.Renamed(n, name)) {
				return d, true
			}
			for _, c := range x {
				if d, ok := walk(c); ok {
					return d, true
				}
			}
		case []any:
			for _, c := range x {
				if d, ok := walk(c); ok {
					return d, true
				}
			}
		}
		return "", false
	}
	return walk(v)
}
