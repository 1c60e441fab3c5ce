package fakeapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A Turn is one scripted reply. A turn with a Tool asks the client to call
// that tool with Input, and with Calls, those tools too, all in the one
// reply (parallel tool calls); a turn without any answers as the reader.
type Turn struct {
	Tool  string          `json:"tool,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// Key, when set, finds the tool's definition by a text it holds (a
	// codeword of its description), for a client that renamed the tool
	// beyond a prefix (a cut or hashed name) or offers two of one name.
	Key string `json:"key,omitempty"`
	// Calls are more calls of the same reply.
	Calls []Call `json:"calls,omitempty"`
}

// A Call is one scripted tool call: the server's name of the tool, the
// input, and the Key that finds a renamed tool's definition.
type Call struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input,omitempty"`
	Key   string          `json:"key,omitempty"`
	// Server is the name the client's config gives the tool's server: a
	// definition behind its prefix is the tool before one of the bare name
	// (Names.Find).
	Server string `json:"server,omitempty"`
	// Fit keeps of Input only the properties the offered definition's
	// input schema declares, for a tool clients define each their own way
	// (read_mcp_resource takes server and uri in Codex CLI, uri alone in
	// Gemini CLI, and refuses what it does not declare).
	Fit bool `json:"fit,omitempty"`
}

// offered is the definition of ctx the call calls (Names.Find), unless
// it is of the bare name while a text of ctx names the tool behind a
// prefix: then the client deferred the server's tool and the bare name is
// its own (Claude Code's Read beside mcp__lab__Read in its deferred
// list), and the tool is to be loaded first.
func (c Call) offered(ctx Context) (Segment, bool) {
	s, ok := Names{Server: c.Server}.Find(ctx, c.Tool, c.Key)
	if ok && s.Name == c.Tool && s.Namespace == "" && slices.ContainsFunc(namedInText(ctx, c.Tool), func(n string) bool { return n != c.Tool }) {
		return Segment{}, false
	}
	return s, ok
}

// calls lists the turn's calls: Tool first, then Calls.
func (t Turn) calls() []Call {
	var out []Call
	if t.Tool != "" {
		out = append(out, Call{Tool: t.Tool, Input: t.Input, Key: t.Key})
	}
	return append(out, t.Calls...)
}

// A ToolCall is a call the fake asked for: the script's tool, the name the
// client offered it under (which the model calls), the call's id and
// input. Recorded with each request, so that evidence names the call that
// the following request answers and the lab's log shows arriving.
type ToolCall struct {
	Tool string `json:"tool"`
	Name string `json:"name"`
	// Namespace is the namespace the client offered the tool in (Codex's
	// mcp__SERVER), which the call names beside Name; empty for most.
	Namespace string `json:"namespace,omitempty"`
	// Deferred is the client's name of the tool when the call goes
	// through the client's invoker of loaded tools (Qwen Code's
	// tool_call), which is then Name.
	Deferred string          `json:"deferred,omitempty"`
	ID       string          `json:"id"`
	Input    json.RawMessage `json:"input"`
}

// A Reply is what a fake sends back for one request.
type Reply struct {
	Text  string     // the reader's line, when no tool is called
	Calls []ToolCall // the tool calls, when the script makes some
	// Missed are the scripted tools of the turn that the request does not
	// offer: the model could not call them.
	Missed []string
	// Loading are the scripted tools the reply loads first, through the
	// client's loader of deferred tools (its only call).
	Loading     []string
	InputTokens int
}

// Describe summarises the reply for the request record.
func (r Reply) Describe() string {
	if len(r.Calls) == 0 {
		return r.Text
	}
	parts := make([]string, len(r.Calls))
	for i, c := range r.Calls {
		parts[i] = fmt.Sprintf("tool_use %s %s", c.Name, c.Input)
	}
	return strings.Join(parts, "; ")
}

// num is the number that makes a reply's ids unique: the request's
// sequence number (as in the first call's id), else 0000.
func (r Reply) num() string {
	if len(r.Calls) > 0 {
		if n, ok := strings.CutPrefix(r.Calls[0].ID, "toolu_fake"); ok {
			n, _, _ = strings.Cut(n, "c")
			return n
		}
	}
	return "0000"
}

// callID is the id of the k-th call of the reply to request seq: letters
// and digits only after the prefix, as the real API's ids (Claude Code
// 2.1.328 read toolu_fake0002_1 as toolu_fake0002, and lost every result
// of a reply of several calls but one).
func callID(seq, k int) string {
	if k == 0 {
		return fmt.Sprintf("toolu_fake%04d", seq)
	}
	return fmt.Sprintf("toolu_fake%04dc%d", seq, k)
}

// plan picks the reply for a request whose context is ctx. The turn is the
// number of assistant messages already in the context; a scripted tool is
// called only when the request offers it, so side requests without tools
// (titles, classifiers) get the reader's answer, and a tool the client did
// not offer is Missed.
func plan(script []Turn, ctx Context, prompt string, seq int) Reply {
	turn := assistantTurns(ctx, prompt) - loadingTurns(ctx)
	var r Reply
	if turn >= 0 && turn < len(script) {
		if load, ok := loadDeferred(ctx, script[turn].calls(), seq); ok {
			return load
		}
		for _, c := range script[turn].calls() {
			in := c.Input
			if len(in) == 0 {
				in = json.RawMessage("{}")
			}
			def, ok := c.offered(ctx)
			if !ok {
				call, ok := invoke(ctx, c, in)
				if !ok {
					r.Missed = append(r.Missed, c.Tool)
					continue
				}
				call.ID = callID(seq, len(r.Calls))
				r.Calls = append(r.Calls, call)
				continue
			}
			if c.Fit {
				in = fitInput(def.Text, in)
			}
			r.Calls = append(r.Calls, ToolCall{Tool: c.Tool, Name: def.Name, Namespace: def.Namespace, ID: callID(seq, len(r.Calls)), Input: in})
		}
	}
	if len(r.Calls) == 0 {
		r.Text = Read(ctx, prompt).Line()
	}
	return r
}

// assistantTurns counts the model's turns in ctx: its assistant messages
// after the first user message that carries prompt. Those before it are
// the client's own opening exchange (Qwen Code 0.7.1 sends its context as
// a user message and "Got it. Thanks for the context!" as the assistant's
// before the prompt), no turns of the model's. With no message carrying
// prompt ("" included), every assistant message counts.
func assistantTurns(ctx Context, prompt string) int {
	at := -1
	for _, s := range ctx {
		if s.Kind == KindUserTurn && prompt != "" && strings.Contains(s.Text, prompt) {
			at = s.Message
			break
		}
	}
	seen := map[int]bool{}
	for _, s := range ctx {
		if s.Kind == KindAssistantTurn && s.Message > at {
			seen[s.Message] = true
		}
	}
	return len(seen)
}

// Offered returns the name under which ctx offers the tool named tool,
// its server not known (Names.Find).
func Offered(ctx Context, tool, key string) (string, bool) {
	s, ok := Names{}.Find(ctx, tool, key)
	return s.Name, ok
}

// ToolNamed reports whether a client's name for a tool is the server's
// name, alone or behind a server prefix (mcp__lab__echo, lab_echo,
// lab.echo, lab/echo, lab-echo).
func ToolNamed(clientName, name string) bool {
	if clientName == name {
		return true
	}
	if !strings.HasSuffix(clientName, name) || len(clientName) == len(name) {
		return false
	}
	sep := clientName[len(clientName)-len(name)-1]
	return sep == '_' || sep == '.' || sep == '/' || sep == '-'
}
