package fakeapi

import (
	"encoding/json"
	"slices"
	"strings"
)

// A loader is a client's tool that loads the definitions of deferred tools:
// a client that defers its MCP tools names them in a text of the request
// and offers the loader instead, so a model calls the loader first.
type loader struct {
	Tool  string                      // the loader's name, as offered
	Input func(names []string) string // its input for the tools named
}

// loaders are the deferred-tool loaders the fake knows. Claude Code's
// ToolSearch takes "select:NAME,NAME" (its description says so).
var loaders = []loader{
	{"ToolSearch", func(names []string) string {
		b, _ := json.Marshal(map[string]any{"query": "select:" + strings.Join(names, ","), "max_results": len(names)})
		return string(b)
	}},
}

// loadDeferred is the reply that loads the scripted tools of a turn that
// the request does not offer but names (deferred): one call of the
// client's loader, the first that is offered. ok is false when no tool
// needs loading or no loader is offered.
func loadDeferred(ctx Context, calls []Call, seq int) (Reply, bool) {
	var names, tools []string
	for _, c := range calls {
		if _, ok := Offered(ctx, c.Tool, c.Key); ok {
			continue
		}
		if ns := namedInText(ctx, c.Tool); len(ns) > 0 {
			for _, n := range ns {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
			tools = append(tools, c.Tool)
		}
	}
	if len(names) == 0 {
		return Reply{}, false
	}
	for _, l := range loaders {
		if name, ok := Offered(ctx, l.Tool, ""); ok && name == l.Tool {
			return Reply{Calls: []ToolCall{{Tool: l.Tool, Name: l.Tool, ID: callID(seq, 0), Input: json.RawMessage(l.Input(names))}},
				Loading: tools}, true
		}
	}
	return Reply{}, false
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
// that name it behind a prefix (two servers' tools of one name are two).
func namedInText(ctx Context, tool string) []string {
	var out []string
	for _, s := range ctx {
		if s.Kind == KindToolDefinition || s.Kind == KindAssistantTurn || !strings.Contains(s.Text, tool) {
			continue
		}
		for _, tok := range strings.FieldsFunc(s.Text, func(r rune) bool {
			return !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
		}) {
			if tok != tool && ToolNamed(tok, tool) && !slices.Contains(out, tok) {
				out = append(out, tok)
			}
		}
	}
	return out
}
