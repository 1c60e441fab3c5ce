package surface

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/schemakw"
	"github.com/instrlab/instrlab/lab"
)

// What became of a schema keyword (KeywordFact.Fate).
const (
	Kept      = "kept"
	Rewritten = "rewritten"
	Dropped   = "dropped"
	Added     = "added" // the client's, not the server's
)

// How a tool's definition reached the model (ToolDef.Via).
const (
	ViaFirst = "first request" // defined in the first request that defines tools
	ViaLater = "later request" // defined only later (after a loader of deferred tools)
	ViaNone  = "not sent"      // no request defines it
	// ViaLoaded: no request defines it, but a tool result gives its
	// definition (a loader's answer, as Qwen Code's tool_search).
	ViaLoaded = "in a tool result"
	NoOutput  = "none"      // the tool has no output schema
	OutSent   = "sent"      // the definition holds it
	OutInText = "in a text" // its text is elsewhere in the request
	OutLost   = "dropped"
	// OutUnknown: the tool was not sent, so neither was its output schema
	// measured.
	OutUnknown = "not measured"
)

// A ToolDef says what a client sent the model of one of the server's
// tools: the name, each keyword of the input schema, the output schema.
type ToolDef struct {
	Tool string `json:"tool"`
	// Name is the client's name for it; NameLen its length in
	// characters.
	Name    string `json:"name,omitempty"`
	NameLen int    `json:"name_len,omitempty"`
	// Namespace is the namespace the client defined it in (Codex's
	// mcp__SERVER), a name the model sees beside Name.
	Namespace string `json:"namespace,omitempty"`
	Via       string `json:"via"`
	// Listed, when no request defines the tool, says a text of one names
	// it behind the server's prefix (a deferred tool the run did not
	// load): the client offered it by name.
	Listed bool `json:"listed,omitempty"`
	// Request is the request whose definition was read (the last that
	// defines the tool).
	Request  int           `json:"request,omitempty"`
	Keywords []KeywordFact `json:"keywords,omitempty"`
	Output   string        `json:"output"`
}

// A KeywordFact is one keyword of an input schema: at Path (a JSON
// pointer to the schema that holds it), what the client did with it;
// Became is the client's schema at Path when it is not kept, so a rewrite
// shows its new form.
type KeywordFact struct {
	Path    string `json:"path"`
	Keyword string `json:"keyword"`
	Fate    string `json:"fate"`
	Sent    string `json:"sent,omitempty"`
	Became  string `json:"became,omitempty"`
}

// Tools compares each tool the server listed (its last tools/list reply in
// log) with the definitions reqs sent, finding each by its whole name as
// the client made it of server's tool (fakeapi.Names), and by the start of
// its description.
func Tools(reqs []Request, log []lab.Entry, server string) []ToolDef {
	var out []ToolDef
	listed := listedTools(log)
	names := fakeapi.Names{Server: server}
	for _, t := range listed {
		names.Tools = append(names.Tools, t.Name)
	}
	firstDefs := -1
	for i, r := range reqs {
		if hasDefinitions(r.Context) {
			firstDefs = i
			break
		}
	}
	for _, t := range listed {
		d := ToolDef{Tool: t.Name, Via: ViaNone, Output: NoOutput}
		if len(t.OutputSchema) > 0 {
			d.Output = OutLost
		}
		key := fakeapi.DescriptionKey(t.Description)
		for i := len(reqs) - 1; i >= 0; i-- {
			seg, ok := names.Find(reqs[i].Context, t.Name, key)
			var def map[string]any
			switch {
			case ok:
				d.Via = ViaLater
				if _, first := names.Find(reqs[max(firstDefs, 0)].Context, t.Name, key); first {
					d.Via = ViaFirst
				}
				def = definition(reqs[i].Context, seg)
			default:
				if seg, def, ok = loadedDefinition(reqs[i].Context, t.Name, key); !ok {
					continue
				}
				d.Via = ViaLoaded
			}
			name := seg.Name
			d.Name, d.NameLen, d.Namespace, d.Request = name, utf8.RuneCountInString(name), seg.Namespace, reqs[i].Seq
			var sent, got any
			json.Unmarshal(t.InputSchema, &sent)
			json.Unmarshal(schemaOf(def), &got)
			d.Keywords = CompareSchema(sent, got)
			if d.Output == OutLost {
				d.Output = outputFate(def, reqs[i].Context, t.OutputSchema)
			}
			break
		}
		if d.Via == ViaNone && d.Output == OutLost {
			d.Output = OutUnknown
		}
		if d.Via == ViaNone {
			d.Listed = slices.ContainsFunc(reqs, func(r Request) bool { return names.Listed(r.Context, t.Name) })
		}
		out = append(out, d)
	}
	return out
}

func hasDefinitions(ctx fakeapi.Context) bool {
	for _, s := range ctx {
		if s.Kind == fakeapi.KindToolDefinition {
			return true
		}
	}
	return false
}

// definition is the tool definition of the segment s of ctx that offers
// it: s itself when it holds a whole definition (of two of one name, the
// one its key found), else the first of its name and namespace.
func definition(ctx fakeapi.Context, s fakeapi.Segment) map[string]any {
	var m map[string]any
	if json.Unmarshal([]byte(s.Text), &m) == nil && schemaOf(m) != nil {
		return m
	}
	for _, d := range ctx {
		if d.Kind == fakeapi.KindToolDefinition && d.Name == s.Name && d.Namespace == s.Namespace {
			m = nil
			json.Unmarshal([]byte(d.Text), &m)
			return m
		}
	}
	return nil
}

// loadedDefinition finds a definition of the server's tool given in a
// tool result of ctx, as a loader of deferred tools answers:
// <function>{JSON}</function>, each a definition (Qwen Code 0.24.4's
// tool_search), found by key or by its name (the server's, alone or
// behind a prefix). The segment returned names it.
func loadedDefinition(ctx fakeapi.Context, tool, key string) (fakeapi.Segment, map[string]any, bool) {
	var found, keyed []map[string]any
	var names, keyedNames []string
	for _, s := range ctx {
		if s.Kind != fakeapi.KindToolResult {
			continue
		}
		rest := s.Text
		for {
			_, after, ok := strings.Cut(rest, "<function>")
			if !ok {
				break
			}
			body, next, ok := strings.Cut(after, "</function>")
			if !ok {
				break
			}
			rest = next
			var def map[string]any
			if json.Unmarshal([]byte(body), &def) != nil {
				continue
			}
			name, _ := def["name"].(string)
			if key != "" && strings.Contains(body, key) && !slices.Contains(keyedNames, name) {
				keyed, keyedNames = append(keyed, def), append(keyedNames, name)
			}
			if fakeapi.ToolNamed(name, tool) && !slices.Contains(names, name) {
				found, names = append(found, def), append(names, name)
			}
		}
	}
	// Held by key: the one, or of several (descriptions that start
	// alike) the one its name names.
	for i, name := range keyedNames {
		if len(keyed) == 1 || fakeapi.ToolNamed(name, tool) && slices.Contains(names, name) && len(found) == 1 {
			return fakeapi.Segment{Kind: fakeapi.KindToolResult, Name: name}, keyed[i], true
		}
	}
	if len(found) != 1 {
		return fakeapi.Segment{}, nil, false
	}
	return fakeapi.Segment{Kind: fakeapi.KindToolResult, Name: names[0]}, found[0], true
}

// schemaKeys are where a definition holds its input schema: Anthropic,
// OpenAI (Chat in function), Gemini, MCP.
var schemaKeys = []string{"input_schema", "parameters", "parametersJsonSchema", "inputSchema"}

// schemaOf finds the input schema of a definition, at its top or in its
// function object.
func schemaOf(def map[string]any) json.RawMessage {
	for _, m := range []any{def, def["function"]} {
		obj, _ := m.(map[string]any)
		for _, k := range schemaKeys {
			if v, ok := obj[k]; ok {
				b, _ := json.Marshal(v)
				return b
			}
		}
	}
	return nil
}

// outputFate says whether an output schema reached the model: in the
// definition, or its longest text anywhere in the request.
func outputFate(def map[string]any, ctx fakeapi.Context, out json.RawMessage) string {
	for _, m := range []any{def, def["function"]} {
		obj, _ := m.(map[string]any)
		for _, k := range []string{"outputSchema", "output_schema", "responseJsonSchema", "response"} {
			if _, ok := obj[k]; ok {
				return OutSent
			}
		}
	}
	var v any
	json.Unmarshal(out, &v)
	if s := longestString(v); utf8.RuneCountInString(s) >= minNeedle {
		for _, seg := range ctx {
			if f := Locate(fakeapi.Context{seg}, "", part("outputSchema", FormJSON, s)); f.Reached {
				if seg.Kind == fakeapi.KindToolDefinition {
					return OutSent
				}
				return OutInText
			}
		}
	}
	return OutLost
}

// CompareSchema compares the server's schema sent with the client's got,
// keyword by keyword: kept (equal), rewritten (another value), dropped,
// or added by the client. A keyword whose value holds schemas on both
// sides, held the same way (schemakw.Subs: named, one, a list of the same
// length), is compared inside, schema by schema: a named schema the
// client lacks is dropped whole ("(schema)"); a list of another length,
// or a value held another way, is rewritten whole. A value that is data
// (const, default, enum) is compared whole, whatever it holds.
func CompareSchema(sent, got any) []KeywordFact {
	var out []KeywordFact
	s, _ := sent.(map[string]any)
	compareAt("", s, got, &out)
	return out
}

func compareAt(path string, s map[string]any, got any, out *[]KeywordFact) {
	g, _ := got.(map[string]any)
	became := compact(got)
	if inner, ok := nullable(s, g); ok {
		// The client made the schema nullable (OpenAI's strict mode
		// form of an optional property): that is one fact, unless the
		// server's was already (a type list with "null", in another
		// form), and the keywords are compared with the schema it
		// wrapped.
		if !sameNullable(s, inner) {
			*out = append(*out, KeywordFact{Path: path, Keyword: Nullable, Fate: Added, Became: became})
		}
		g = inner
	}
	for _, k := range slices.Sorted(maps.Keys(s)) {
		gv, has := g[k]
		if !has {
			*out = append(*out, KeywordFact{Path: path, Keyword: k, Fate: Dropped, Sent: compact(s[k]), Became: became})
			continue
		}
		if reflect.DeepEqual(s[k], gv) || k == "type" && sameType(s[k], g) {
			*out = append(*out, KeywordFact{Path: path, Keyword: k, Fate: Kept})
			continue
		}
		sk, ss := schemakw.Subs(k, s[k])
		gk, gs := schemakw.Subs(k, gv)
		if sk == schemakw.Data || sk != gk || sk == schemakw.List && len(ss) != len(gs) {
			*out = append(*out, KeywordFact{Path: path, Keyword: k, Fate: Rewritten, Sent: compact(s[k]), Became: compact(gv)})
			continue
		}
		gotAt := make(map[string]map[string]any, len(gs))
		for _, sub := range gs {
			gotAt[sub.Path] = sub.Schema
		}
		for _, sub := range ss {
			p := path + sub.Path
			gsub, ok := gotAt[sub.Path]
			if !ok {
				*out = append(*out, KeywordFact{Path: p, Keyword: "(schema)", Fate: Dropped, Sent: compact(sub.Schema), Became: compact(gv)})
				continue
			}
			compareAt(p, sub.Schema, gsub, out)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(g)) {
		if _, ok := s[k]; !ok {
			*out = append(*out, KeywordFact{Path: path, Keyword: k, Fate: Added, Became: compact(g[k])})
		}
	}
}

// Nullable is the keyword of the fact that a client wrapped a schema as
// {"anyOf": [SCHEMA, {"type": "null"}]}, so the model may send null.
const Nullable = "(nullable)"

// nullable reports whether got is the schema s made nullable: an anyOf of
// two where s has none, one of them {"type": "null"}; it returns the
// other, with the keywords got holds beside the anyOf (a description the
// client moved out).
func nullable(s, got map[string]any) (map[string]any, bool) {
	if _, has := s["anyOf"]; has {
		return nil, false
	}
	branches, _ := got["anyOf"].([]any)
	if len(branches) != 2 {
		return nil, false
	}
	null := map[string]any{"type": "null"}
	for i, b := range branches {
		other, _ := branches[1-i].(map[string]any)
		if !reflect.DeepEqual(b, null) || other == nil {
			continue
		}
		inner := maps.Clone(other)
		for k, v := range got {
			if _, has := inner[k]; !has && k != "anyOf" {
				inner[k] = v
			}
		}
		return inner, true
	}
	return nil, false
}

// sameNullable reports whether the server's schema s was nullable by a
// type list with "null" whose other types inner, the wrapped schema,
// holds: then inner takes s's type list, the same type in the form sent.
func sameNullable(s, inner map[string]any) bool {
	list, _ := s["type"].([]any)
	if !slices.Contains(list, any("null")) {
		return false
	}
	var rest []any
	for _, t := range list {
		if t != "null" {
			rest = append(rest, t)
		}
	}
	want := any(rest)
	if len(rest) == 1 {
		want = rest[0]
	}
	if !reflect.DeepEqual(inner["type"], want) {
		return false
	}
	inner["type"] = s["type"]
	return true
}

// sameType reports whether the type of the client's schema g is the
// server's, sent, in Gemini's Schema spelling: a type in capitals
// ("OBJECT"), and a type list with "null" as its one other type with
// nullable: true.
func sameType(sent any, g map[string]any) bool {
	got, ok := g["type"].(string)
	if !ok {
		return false
	}
	switch t := sent.(type) {
	case string:
		return strings.EqualFold(t, got)
	case []any:
		if len(t) != 2 || !slices.Contains(t, any("null")) || g["nullable"] != true {
			return false
		}
		for _, one := range t {
			if s, ok := one.(string); ok && s != "null" {
				return strings.EqualFold(s, got)
			}
		}
	}
	return false
}

func compact(v any) string {
	if v == nil {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// A listedTool is a tool of the server's tools/list reply.
type listedTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// listedTools are the tools of the last tools/list reply the log kept.
func listedTools(log []lab.Entry) []listedTool {
	var tools []listedTool
	for _, e := range log {
		if e.Dir != lab.Send || e.Method != "tools/list" || e.Kind != lab.KindResponse || len(e.Body) == 0 {
			continue
		}
		var reply struct {
			Result struct {
				Tools []listedTool `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(e.Body, &reply) == nil {
			tools = reply.Result.Tools
		}
	}
	return tools
}
