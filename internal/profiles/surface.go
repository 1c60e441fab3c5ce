package profiles

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/schemakw"
)

// Surface is what a client did with the rest of a server's surface in
// runs of the surface matrix (instrlab run -matrix surface,
// docs/surface.md): the form a tool's result reached the model in, each
// keyword of an input schema, and the names it gave the tools. Every value
// is measured on the lab's surface tools; what the runs did not show is
// not listed.
type Surface struct {
	// Runs is how many runs measured it; Model the model their requests
	// named, when not the profile's (a client run with another model to
	// call tools, as Codex with local-model).
	Runs  int    `json:"runs"`
	Model string `json:"model,omitempty"`
	// Results are the forms of a tool's result, per case measured.
	Results []ResultForm `json:"results,omitempty"`
	// Schema is each input-schema keyword measured, in the order of
	// their names.
	Schema []SchemaKeyword `json:"schema,omitempty"`
	// Names is what became of the tools' names; nil when not measured.
	Names *Names `json:"names,omitempty"`
	// Texts is what became of the server's prompts, resources and tool
	// metadata; nil when not measured.
	Texts *Texts `json:"texts,omitempty"`
	// Reserved is what became of tools named as clients name tools of
	// their own; nil when not measured.
	Reserved *Reserved `json:"reserved,omitempty"`
}

// Reserved is what a client did with a server's tools named as the
// pinned clients name tools of their own (labvocab.ReservedNames, the surface
// row surface-reserved): Hidden are those it offered the model under no
// name while it offered the server's others; Shadowed those it offered,
// but whose call, made by that name, never reached the server (the client
// ran its own tool of the name: Continue CLI 1.5.47's Read); Measured
// every name served (a name not among them is not measured).
type Reserved struct {
	Measured []string `json:"measured"`
	Hidden   []string `json:"hidden,omitempty"`
	Shadowed []string `json:"shadowed,omitempty"`
	Runs     int      `json:"runs"`
}

// Hides reports whether the client was measured to hide a server's tool
// named name.
func (r *Reserved) Hides(name string) bool { return r != nil && slices.Contains(r.Hidden, name) }

// Shadows reports whether the client was measured to run a tool of its
// own for a call of a server's tool named name.
func (r *Reserved) Shadows(name string) bool { return r != nil && slices.Contains(r.Shadowed, name) }

// Texts is what a client did with a server's texts besides its
// instructions, tool descriptions and results (the surface rows prompts,
// meta and resources): whether it asked for the server's prompts and
// resources and put any of their texts (names, titles, descriptions, a
// URI) in a request; whether a tool's title, annotations title, _meta
// strings or icon were in one; and what of a resource reached the model
// when the model read it with the client's own tool. Each "" where not
// measured.
type Texts struct {
	Runs      int    `json:"runs"`
	Prompts   string `json:"prompts,omitempty"`
	Resources string `json:"resources,omitempty"`
	ToolMeta  string `json:"tool_meta,omitempty"`
	// Read is TextsWhole, TextsCut, TextsHidden (read, and in no request)
	// or TextsNoTool; ReadTools the client's tools the model called for
	// it, as the client named them.
	Read      string   `json:"read,omitempty"`
	ReadTools []string `json:"read_tools,omitempty"`
}

// What became of a kind of text (Texts).
const (
	TextsShown   = "in a request"      // some text of the kind was in a model request
	TextsHidden  = "none in a request" // the client had the texts, and no request held one
	TextsUnasked = "never asked"       // the client never asked the server for the list
	TextsWhole   = "whole"             // a resource read for the model reached it whole
	TextsCut     = "cut"
	TextsNoTool  = "no resource tool" // the client offers the model no tool to read a resource
)

// The cases of a result a ResultForm may be of.
const (
	ResultContent    = "content"     // content text only (the lab's result_text)
	ResultStructured = "structured"  // structuredContent, empty content (result_structured)
	ResultBoth       = "both"        // content text and structuredContent (result_both)
	ResultOutSchema  = "output-both" // both, from a tool with an outputSchema (result_outschema)
	ResultImage      = "image"       // an image content part only (result_image)
	// A content text beside a structuredContent that is not an object,
	// as the specification requires it to be (the lab's bad row): what
	// a client passes on, or whether it rejects the result (neither part
	// reaches the model; it gets the client's error instead).
	ResultNullStructured   = "structured-null"   // structuredContent null (bad_null_structured)
	ResultStringStructured = "structured-string" // structuredContent a string (bad_string_structured)
	ResultArrayStructured  = "structured-array"  // structuredContent an array (bad_array_structured)
)

// What became of a part, a keyword or a name.
const (
	FateKept      = "kept"
	FateDropped   = "dropped"
	FateRewritten = "rewritten"
	FateCut       = "cut"
	// FateVaries: the runs that measured it disagree.
	FateVaries = "varies"
)

// A ResultForm is what reached the model of a result of one case: the
// fate of its content text, of its structuredContent and of its image
// ("" when the case has none), over the calls (Runs) whose result a
// request carried. An image is kept when its data reached the model as
// an image, in the tool result or in a message of its own.
type ResultForm struct {
	Case       string `json:"case"`
	Tool       string `json:"tool"`
	Runs       int    `json:"runs"`
	Content    string `json:"content,omitempty"`
	Structured string `json:"structured,omitempty"`
	Image      string `json:"image,omitempty"`
}

// Result is the form measured for case c, nil when none was.
func (s *Surface) Result(c string) *ResultForm {
	if s == nil {
		return nil
	}
	for i := range s.Results {
		if s.Results[i].Case == c {
			return &s.Results[i]
		}
	}
	return nil
}

// A SchemaKeyword is what the client did with one JSON Schema keyword of
// an input schema: at its top level (Top) and inside it (Nested: in a
// property, a $defs entry, an items schema), each "" where not measured.
// Tool, Sent and Became are one measured drop or rewrite: the tool, the
// schema that held the keyword as the server sent it and as the client
// sent it.
type SchemaKeyword struct {
	Keyword string `json:"keyword"`
	Top     string `json:"top,omitempty"`
	Nested  string `json:"nested,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Sent    string `json:"sent,omitempty"`
	Became  string `json:"became,omitempty"`
}

// Keyword is what s measured of keyword k, nil when it did not.
func (s *Surface) Keyword(k string) *SchemaKeyword {
	if s == nil {
		return nil
	}
	for i := range s.Schema {
		if s.Schema[i].Keyword == k {
			return &s.Schema[i]
		}
	}
	return nil
}

// Fate is the keyword's fate at the top level or inside, "" when not
// measured there.
func (k SchemaKeyword) Fate(top bool) string {
	if top {
		return k.Top
	}
	return k.Nested
}

// Names is what a client did with tool names: the prefix it puts before
// them, what became of long names and of names with characters a client
// may refuse.
type Names struct {
	// Prefix is what the model sees before a tool's name, {server}
	// standing for the server's name ("mcp__{server}__"); "" when none.
	// Namespace, when set, is the namespace the tool is defined in
	// instead (Codex: "mcp__{server}"), whose name a call names too;
	// lengths then count it and "__" as a prefix.
	Prefix    string `json:"prefix"`
	Namespace string `json:"namespace,omitempty"`
	// Server is the server's name in the measured runs.
	Server  string       `json:"server"`
	Lengths []NameLength `json:"lengths,omitempty"`
	Chars   []NameChars  `json:"chars,omitempty"`
	// Servers is what became of a server's name with a kind of
	// character in the prefix (Tool is the server's name, Name the
	// client's for it: lab-hyphen in Codex CLI 0.171.0's namespace is
	// lab_hyphen); a kind not listed was not measured.
	Servers []NameChars `json:"servers,omitempty"`
}

// A NameLength is what became of a tool name of Chars characters, Full
// with the prefix for the run's server: kept, cut to Got characters
// (prefix included; Hash when a hash or suffix follows the cut), or
// dropped (the tool was not offered).
type NameLength struct {
	Tool  string `json:"tool"`
	Chars int    `json:"chars"`
	Full  int    `json:"full"`
	Fate  string `json:"fate"`
	Got   int    `json:"got,omitempty"`
	Hash  bool   `json:"hash,omitempty"`
	Name  string `json:"name,omitempty"`
	Runs  int    `json:"runs"`
}

// The kinds of characters in a name (NameChars.Kind).
const (
	NameDot      = "dot"       // '.' (name.dotted.case)
	NameHyphen   = "hyphen"    // '-'
	NameUpper    = "upper"     // upper-case letters
	NameNonASCII = "non-ascii" // letters outside ASCII
	// A name that is the start of another tool's name of the server
	// (list_directory beside list_directory_with_sizes), and the name
	// that starts with it.
	NamePrefix   = "prefix"
	NamePrefixed = "prefixed"
)

// A NameChars is what became of a name with one kind of character: kept
// as the server wrote it, rewritten (Name is the client's), or dropped.
type NameChars struct {
	Kind string `json:"kind"`
	Tool string `json:"tool"`
	Fate string `json:"fate"`
	Name string `json:"name,omitempty"`
	Runs int    `json:"runs"`
}

// PrefixFor is the text before a tool's name for server (the namespace
// and "__" for a client that defines tools in one).
func (n Names) PrefixFor(server string) string {
	if n.Namespace != "" {
		return strings.ReplaceAll(n.Namespace, "{server}", server) + "__"
	}
	return strings.ReplaceAll(n.Prefix, "{server}", server)
}

// NameKinds are the kinds of name that NameChars cover for name among
// the server's tools named all: its characters, and whether it is the
// start of another's name or starts with another's.
func NameKinds(name string, all []string) []string {
	out := CharKinds(name)
	if slices.ContainsFunc(all, func(o string) bool { return len(o) > len(name) && strings.HasPrefix(o, name) }) {
		out = append(out, NamePrefix)
	}
	if slices.ContainsFunc(all, func(o string) bool { return len(o) < len(name) && o != "" && strings.HasPrefix(name, o) }) {
		out = append(out, NamePrefixed)
	}
	return out
}

// CharKinds are the kinds of characters of name that NameChars cover.
func CharKinds(name string) []string {
	var out []string
	add := func(k string) {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, r := range name {
		switch {
		case r == '.':
			add(NameDot)
		case r == '-':
			add(NameHyphen)
		case r >= 'A' && r <= 'Z':
			add(NameUpper)
		case r > 127:
			add(NameNonASCII)
		}
	}
	return out
}

// validate reports the first thing that makes s unusable.
func (s *Surface) validate() error {
	if s == nil {
		return nil
	}
	if s.Runs < 1 {
		return fmt.Errorf("surface: measured by no run")
	}
	for _, r := range s.Results {
		if r.Case == "" || r.Tool == "" || r.Runs < 1 {
			return fmt.Errorf("surface: a result form needs case, tool and runs")
		}
	}
	for _, k := range s.Schema {
		if k.Keyword == "" || k.Top == "" && k.Nested == "" {
			return fmt.Errorf("surface: schema keyword %q measured nowhere", k.Keyword)
		}
	}
	if err := s.Names.validate(); err != nil {
		return fmt.Errorf("surface: %w", err)
	}
	return nil
}

// validate reports the first thing that makes n unusable.
func (n *Names) validate() error {
	if n == nil {
		return nil
	}
	for _, l := range n.Lengths {
		if l.Tool == "" || l.Fate == "" || l.Runs < 1 {
			return fmt.Errorf("a name length needs tool, fate and runs")
		}
	}
	return nil
}

// A KeywordAt is one keyword of a JSON Schema at Path, a JSON pointer to
// the schema that holds it ("" for the top level), as
// surface.CompareSchema writes paths.
//
// Key is the name a profile keeps the keyword's fate under: the keyword,
// or its KeywordKey where the form of its value decides what a client
// does with it (Gemini CLI 0.61.0 sends ["string","null"] as "string",
// "string" and ["string","number"] as they are).
type KeywordAt struct{ Path, Keyword, Key string }

// The Keys of keywords whose fate depends on the form of their value:
// Gemini CLI 0.61.0 sends a list of types with "null" as its other type
// and keeps one without; Codex CLI 0.171.0 and Copilot CLI 1.0.102
// rewrite an items schema of false and keep an items object; mcp-use
// 1.34.6 sends the type "integer" as "number" and keeps "string".
const (
	TypeList     = "type[]"       // a list of types without "null"
	TypeNullable = "type[]+null"  // a list of types with "null"
	TypeInteger  = "type=integer" // the one type "integer"
	ItemsBool    = "items=bool"   // items as a boolean schema
)

// KeywordKey is the Key of keyword k with value v (KeywordAt.Key).
func KeywordKey(k string, v any) string {
	switch list, _ := v.([]any); {
	case k == "type" && list != nil && slices.Contains(list, any("null")):
		return TypeNullable
	case k == "type" && list != nil:
		return TypeList
	case k == "type" && v == "integer":
		return TypeInteger
	}
	if _, ok := v.(bool); ok && k == "items" {
		return ItemsBool
	}
	return k
}

// KeywordWords is key as a message names it, in backquotes.
func KeywordWords(key string) string {
	switch key {
	case TypeList:
		return "`type` (a list of types)"
	case TypeNullable:
		return "`type` (a list of types with null)"
	case TypeInteger:
		return "`type` (integer)"
	case ItemsBool:
		return "`items` (a boolean schema)"
	}
	return "`" + key + "`"
}

// Top reports whether the keyword is at the schema's top level.
func (k KeywordAt) Top() bool { return k.Path == "" }

// SchemaKeywords lists every keyword of the JSON Schema v, in the order
// of their names, each followed by those of the schemas its value holds:
// named schemas (properties, $defs), a schema (items, not,
// additionalProperties) and lists of schemas (anyOf, oneOf, prefixItems),
// as schemakw.Subs finds them. A value that is data (const, default,
// enum, examples) is not looked into.
func SchemaKeywords(v any) []KeywordAt {
	m, _ := v.(map[string]any)
	return schemaKeywordsAt("", m)
}

func schemaKeywordsAt(path string, m map[string]any) []KeywordAt {
	var out []KeywordAt
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, KeywordAt{Path: path, Keyword: k, Key: KeywordKey(k, m[k])})
		_, subs := schemakw.Subs(k, m[k])
		for _, sub := range subs {
			out = append(out, schemaKeywordsAt(path+sub.Path, sub.Schema)...)
		}
	}
	return out
}
