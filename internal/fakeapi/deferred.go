package fakeapi

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// A loader is a client's tool that loads the definitions of deferred tools:
// a client that defers its MCP tools names them in a text of the request
// and offers the loader instead, so a model calls the loader first.
type loader struct {
	Tool  string                      // the loader's name, as offered
	Input func(names []string) string // its input for the tools named
	// Max is how many tools one call may load (its schema's bound), 0
	// for any number: more are loaded by more calls in the one reply.
	Max int
	// Invoker, when set, is the client's tool that calls a loaded tool
	// (whose definition the loader gave in its result, not in the
	// request's tools), and Invoke its input for the tool and input.
	Invoker string
	Invoke  func(name string, input json.RawMessage) json.RawMessage
}

// loaders are the deferred-tool loaders the fake knows. Claude Code's
// ToolSearch takes "select:NAME,NAME" (its description says so) and then
// defines the tools; Qwen Code 0.24.4's tool_search takes the same query,
// at most 20 results (its schema's maximum), answers with the definitions
// in its result, and the tools are called through tool_call {name,
// arguments} (both descriptions say so).
var loaders = []loader{
	{Tool: "ToolSearch", Input: selectInput},
	{Tool: "tool_search", Input: selectInput, Max: 20, Invoker: "tool_call",
		Invoke: func(name string, input json.RawMessage) json.RawMessage {
			b, _ := json.Marshal(map[string]any{"name": name, "arguments": input})
			return b
		}},
}

// selectInput is a loader's input selecting the tools named.
func selectInput(names []string) string {
	b, _ := json.Marshal(map[string]any{"query": "select:" + strings.Join(names, ","), "max_results": len(names)})
	return string(b)
}

// loadDeferred is the reply that loads the scripted tools of a turn that
// the request does not offer but names (deferred), and that no earlier
// call of a loader loaded: calls of the client's loader, the first that
// is offered (one call, or as many as its Max asks). ok is false when no
// tool needs loading or no loader is offered.
func loadDeferred(ctx Context, calls []Call, seq int) (Reply, bool) {
	var names, tools []string
	for _, c := range calls {
		if _, ok := c.offered(ctx); ok {
			continue
		}
		fresh := false
		for _, n := range namedInText(ctx, c.Tool) {
			if loaded(ctx, n) {
				continue
			}
			fresh = true
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		if fresh {
			tools = append(tools, c.Tool)
		}
	}
	if len(names) == 0 {
		return Reply{}, false
	}
	for _, l := range loaders {
		if name, ok := Offered(ctx, l.Tool, ""); !ok || name != l.Tool {
			continue
		}
		r, size := Reply{Loading: tools}, len(names)
		if l.Max > 0 {
			size = min(size, l.Max)
		}
		for chunk := range slices.Chunk(names, size) {
			r.Calls = append(r.Calls, ToolCall{Tool: l.Tool, Name: l.Tool, ID: callID(seq, len(r.Calls)), Input: json.RawMessage(l.Input(chunk))})
		}
		return r, true
	}
	return Reply{}, false
}

// loaded reports whether an assistant turn of ctx called a loader with
// name in its input: the tool is loaded, whether or not the client then
// defines it.
func loaded(ctx Context, name string) bool {
	for _, s := range ctx {
		if s.Kind != KindAssistantTurn || !slices.Contains(nameTokens(s.Text), name) {
			continue
		}
		for _, l := range loaders {
			if s.Name == l.Tool {
				return true
			}
		}
	}
	return false
}

// invoke is the call of a scripted tool that a loader loaded but the
// request does not define, through the loader's invoker when the request
// offers it: the call's Name is the invoker, its Deferred the client's
// name of the tool (the one the loader was given). ok is false otherwise.
func invoke(ctx Context, c Call, in json.RawMessage) (ToolCall, bool) {
	name, ok := deferredName(ctx, c.Tool, c.Key)
	if !ok || !loaded(ctx, name) {
		return ToolCall{}, false
	}
	for _, l := range loaders {
		if l.Invoker == "" {
			continue
		}
		if got, ok := Offered(ctx, l.Invoker, ""); ok && got == l.Invoker {
			if c.Fit {
				in = fitInput(loadedDefinition(ctx, name), in)
			}
			return ToolCall{Tool: c.Tool, Name: l.Invoker, Deferred: name, Input: l.Invoke(name, in)}, true
		}
	}
	return ToolCall{}, false
}

// loadedDefinition is the definition of the tool named name that a
// loader's result gave (Qwen Code's tool_search answers with each tool's
// {"name":…,"parametersJsonSchema":…} in a text), "" when none did.
func loadedDefinition(ctx Context, name string) string {
	head := `{"name":` + strconv.Quote(name)
	for _, s := range ctx {
		if s.Kind != KindToolResult {
			continue
		}
		for text := s.Text; ; {
			i := strings.Index(text, head)
			if i < 0 {
				break
			}
			var def json.RawMessage
			if json.NewDecoder(strings.NewReader(text[i:])).Decode(&def) == nil {
				return string(def)
			}
			text = text[i+len(head):]
		}
	}
	return ""
}

// deferredName is the client's name of a deferred tool among the names of
// the texts of ctx (namedInText): the one name, or with key the one whose
// line of text holds key (two servers' tools of one name).
func deferredName(ctx Context, tool, key string) (string, bool) {
	names := namedInText(ctx, tool)
	if len(names) == 1 {
		return names[0], true
	}
	if key == "" {
		return "", false
	}
	var found []string
	for _, s := range ctx {
		if s.Kind == KindToolDefinition || s.Kind == KindAssistantTurn {
			continue
		}
		for _, line := range strings.Split(s.Text, "\n") {
			if !strings.Contains(line, key) {
				continue
			}
			for _, n := range names {
				if strings.Contains(line, n) && !slices.Contains(found, n) {
					found = append(found, n)
				}
			}
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return "", false
}

// loadingTurns counts the assistant turns of ctx that only called a
// loader: they do not use up a scripted turn.
func loadingTurns(ctx Context) int {
	only := map[int]bool{}
	for _, s := range ctx {
		if s.Kind != KindAssistantTurn {
			continue
		}
		isLoader := false
		for _, l := range loaders {
			isLoader = isLoader || (s.Name == l.Tool && s.Name != "")
		}
		if v, seen := only[s.Message]; seen {
			only[s.Message] = v && isLoader
		} else {
			only[s.Message] = isLoader
		}
	}
	n := 0
	for _, v := range only {
		if v {
			n++
		}
	}
	return n
}

// namedInText finds the client's names for the server's tool in the texts
// of ctx that are not tool definitions (a list of deferred tools): tokens
// that name it behind a prefix (two servers' tools of one name are two);
// when none does, tokens that name it renamed (Renamed: a name cut, or
// with characters made '_', as Droid and Qwen Code list them); when none
// does either, the name itself, where a text holds it whole (a client's
// own deferred tool: Claude Code's ListMcpResourcesTool).
func namedInText(ctx Context, tool string) []string {
	var out, renamed []string
	exact := false
	for _, s := range ctx {
		if s.Kind == KindToolDefinition || s.Kind == KindAssistantTurn {
			continue
		}
		for _, tok := range nameTokens(s.Text) {
			switch {
			case tok == tool:
				exact = true
			case ToolNamed(tok, tool):
				if !slices.Contains(out, tok) {
					out = append(out, tok)
				}
			case Renamed(tok, tool):
				if !slices.Contains(renamed, tok) {
					renamed = append(renamed, tok)
				}
			}
		}
	}
	switch {
	case len(out) > 0:
		return out
	case len(renamed) > 0:
		return renamed
	case exact:
		return []string{tool}
	}
	return nil
}

// Renamed reports whether a client's name for a tool is the server's name
// made a tool name as clients make them, behind a prefix, where ToolNamed
// does not find it: every character but an ASCII letter, a digit, '_'
// and '-' made '_' (a dot, a letter outside ASCII), and the name cut, or
// not, before '_' and a hash or suffix of 4 to 16 letters and digits, at
// least one a digit (Droid 0.225.2: lab___ + the name cut + _ + 8 hex;
// Qwen Code 0.24.4: mcp__lab__ + the name cut to 37 + _ + 7 base-36, and
// a dotted name whole + _ + 7). A cut keeps at least 8 characters of the
// name (all of a shorter one). A name whose '-' the client made '_' as
// well is the tool too (Codex 0.171.0 lists server-everything's
// get-structured-content as get_structured_content).
func Renamed(clientName, name string) bool { return renamed(clientName, name, false) }

// RenamedWhole reports whether a client's name for a tool is the server's
// name renamed as Renamed finds it, with none of it cut: every character
// of the name is there, made '_' or not, a hash or suffix after it or not
// (Qwen Code 0.24.4's mcp__lab__name_dotted_case_1wpy6f5). A name cut
// before a hash (Cline CLI 3.0.65's lab__ + the first 50 characters + _ +
// 8 hex) is renamed, not whole: the model never sees the rest of it.
func RenamedWhole(clientName, name string) bool { return renamed(clientName, name, true) }

// renamed is Renamed, or with whole RenamedWhole: a cut before a hash
// keeps all of the name, not minCut characters of it.
func renamed(clientName, name string, whole bool) bool {
	for _, made := range renamings(name) {
		shortest := min(len(made), minCut)
		if whole {
			shortest = len(made)
		}
		if made != name && ToolNamed(clientName, made) || cutBeforeSuffix(clientName, made, shortest) {
			return true
		}
	}
	return false
}

// Namespaces are the names a client may give the namespace of the tools
// of the server it calls server: mcp__SERVER, and the server's name
// renamed as Renamed renames a tool's (Codex 0.171.0 lists
// server-filesystem's tools as the namespace mcp__server_filesystem).
func Namespaces(server string) []string {
	var out []string
	for _, made := range append([]string{server}, renamings(server)...) {
		if !slices.Contains(out, "mcp__"+made) {
			out = append(out, "mcp__"+made)
		}
	}
	return out
}

// renamings are the names clients make of name: toolSafe's, and that
// with '-' made '_' as well.
func renamings(name string) []string {
	safe := toolSafe(name)
	return []string{safe, strings.ReplaceAll(safe, "-", "_")}
}

// cutBeforeSuffix reports whether clientName is safe, cut to no fewer
// than shortest characters or not at all, behind a prefix, then '_' and a
// hash or suffix (isSuffix).
func cutBeforeSuffix(clientName, safe string, shortest int) bool {
	i := strings.LastIndexByte(clientName, '_')
	if i <= 0 || !isSuffix(clientName[i+1:]) {
		return false
	}
	head := clientName[:i]
	for k := len(safe); k >= shortest; k-- {
		if ToolNamed(head, safe[:k]) && head != safe[:k] {
			return true
		}
	}
	return false
}

// minCut is the shortest start of a name that Renamed takes for the name
// cut.
const minCut = 8

// toolSafe is name with every character but an ASCII letter, a digit,
// '_' and '-' made '_', one for each code point.
func toolSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, name)
}

// isSuffix reports whether s looks like a hash or suffix a client adds to
// a renamed tool: 4 to 16 lower-case letters and digits, one a digit.
func isSuffix(s string) bool {
	digit := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r < 'a' || r > 'z':
			return false
		}
	}
	return digit && len(s) >= 4 && len(s) <= 16
}

// nameTokens splits a text into the tokens that may be tool names:
// letters, digits, '_', '-', '.' and any non-ASCII.
func nameTokens(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
	})
}
