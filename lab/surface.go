package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A SurfaceGroup names a set of the lab's surface: the tools, prompts and
// resources, besides instructions and tool descriptions, that a server
// puts in front of a model (-surface). Each part the lab sends carries a
// codeword of its own (SurfaceCodeword), so that a captured model request
// shows which parts arrived, in what form and where.
type SurfaceGroup string

// The surface groups, in the order of -surface's help.
const (
	// SurfaceResults are tools whose results carry a codeword in each part:
	// content text, structuredContent, both, isError, an image, a
	// resource_link, an embedded resource, _meta, content annotations, and
	// a tool with an outputSchema.
	SurfaceResults SurfaceGroup = "results"
	// SurfaceSize are two tools whose result is a generated text of
	// -result-size characters, one of them with the _meta key
	// anthropic/maxResultSizeChars: where a client cuts a long result.
	SurfaceSize SurfaceGroup = "size"
	// SurfaceSchemas are tools whose input schemas each use one feature of
	// JSON Schema 2020-12 (labvocab.SchemaFeatures).
	SurfaceSchemas SurfaceGroup = "schemas"
	// SurfaceNames are tools whose names are long, dotted, hyphenated,
	// upper case or not ASCII.
	SurfaceNames SurfaceGroup = "names"
	// SurfaceReserved are tools named as the pinned clients name tools of
	// their own (labvocab.ReservedNames). "all" leaves it out: it is many tools.
	SurfaceReserved SurfaceGroup = "reserved"
	// SurfaceTwin is one tool that every lab of a run with several has,
	// under one name: two servers with the same tool name.
	SurfaceTwin SurfaceGroup = "twin"
	// SurfaceMeta are tools with each _meta key (anthropic/alwaysLoad,
	// anthropic/searchHint, a key of the lab's own), annotations, a title
	// and an icon.
	SurfaceMeta SurfaceGroup = "meta"
	// SurfacePrompts declares prompts and resources and serves one of each.
	SurfacePrompts SurfaceGroup = "prompts"
	// SurfaceBad are tools that answer wrongly: no content, content of the
	// wrong type, structuredContent that does not fit the outputSchema,
	// a 10 MB text, a protocol error.
	SurfaceBad SurfaceGroup = "bad"
	// SurfaceHang is a tool that never answers (until the call is
	// cancelled or the session ends). "all" leaves it out.
	SurfaceHang SurfaceGroup = "hang"
	// SurfaceProtocol are tools that ask the client (elicitation, sampling,
	// roots) and announce (a log message, progress, a tool added with
	// tools/list_changed) while they run, and tools that declare (an
	// app-only tool, x-mcp-header). "all" leaves it out: an ask may wait
	// AskTimeout, and the server's tools change.
	SurfaceProtocol SurfaceGroup = "protocol"
)

// SurfaceGroups lists every group, in the order of -surface's help.
var SurfaceGroups = []SurfaceGroup{SurfaceResults, SurfaceSize, SurfaceSchemas, SurfaceNames, SurfaceReserved, SurfaceTwin, SurfaceMeta, SurfacePrompts, SurfaceBad, SurfaceHang, SurfaceProtocol}

// surfaceAll is the -surface value for every group but SurfaceHang,
// SurfaceReserved and SurfaceProtocol.
const surfaceAll = "all"

// ParseSurface parses -surface: groups separated by commas, or "all"
// (every group but hang, which may stop a client, reserved, which is
// many tools, and protocol, which waits for answers). The empty string is
// no group. Groups come back in SurfaceGroups' order, each once.
func ParseSurface(s string) ([]SurfaceGroup, error) {
	if s == "" {
		return nil, nil
	}
	want := map[SurfaceGroup]bool{}
	for _, g := range strings.Split(s, ",") {
		g = strings.TrimSpace(g)
		switch {
		case g == surfaceAll:
			for _, k := range SurfaceGroups {
				want[k] = want[k] || k != SurfaceHang && k != SurfaceReserved && k != SurfaceProtocol
			}
		case slices.Contains(SurfaceGroups, SurfaceGroup(g)):
			want[SurfaceGroup(g)] = true
		default:
			return nil, fmt.Errorf("unknown surface group %q (want %s, or %s)", g, surfaceGroupList(), surfaceAll)
		}
	}
	var out []SurfaceGroup
	for _, g := range SurfaceGroups {
		if want[g] {
			out = append(out, g)
		}
	}
	return out, nil
}

func surfaceGroupList() string {
	names := make([]string, len(SurfaceGroups))
	for i, g := range SurfaceGroups {
		names[i] = string(g)
	}
	return strings.Join(names, ", ")
}

// SurfaceCodeword is the codeword of one part of one surface item of a lab
// started with seed: deterministic, so a run's evidence can be checked
// against it without the server, and seeded, so two labs of one run
// (SurfaceTwin) send parts told apart.
func SurfaceCodeword(seed, item, part string) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "surface/%s/%s/%s", seed, item, part)
	sum := h.Sum64()
	word := codewordWords[sum%uint64(len(codewordWords))]
	return fmt.Sprintf("%s-%04d", word, (sum/uint64(len(codewordWords)))%10000)
}

// surfaceText is the sentence one part carries: the item, the part and
// its codeword, as in "result_both structuredContent codeword: GADWALL-0412."
func surfaceText(seed, item, part string) string {
	return item + " " + part + " codeword: " + SurfaceCodeword(seed, item, part) + "."
}

// A SurfaceTool is one tool of the lab's surface: its definition, what it
// exercises, and how it answers.
type SurfaceTool struct {
	Group SurfaceGroup
	// Case says what the tool exercises, as in "structuredContent only" or
	// "anyOf".
	Case string
	Tool *mcp.Tool
	// Key is a codeword of the tool's description, which finds its
	// definition in a model request whatever name the client gave it.
	Key string
	// Call is what the lab answers a call with: a result, or an error that
	// is a protocol error. Raw, when set, is sent as the result instead,
	// unchecked (a result the SDK's types cannot express); Hang never
	// answers.
	call func() (*mcp.CallToolResult, error)
	Raw  json.RawMessage
	Hang bool
	// ask, when set, answers a call in the place of call, with the
	// session: it asks the client or announces while it runs. adds is a
	// tool added to the server when the tool is called, announced by
	// notifications/tools/list_changed before the call's result.
	ask  func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error)
	adds *SurfaceTool
	// updates is a resource the tool changes when called, announced by
	// notifications/resources/updated to the sessions subscribed to it
	// before the call's result.
	updates *resourceState
	// Members are members of its definition that the SDK's Tool has no
	// field for (the 2025-11-25 execution), added to it as they are in
	// tools/list.
	Members map[string]json.RawMessage
}

// describe is a surface tool's description: what it is for and its key.
func describe(seed, name, what string) (desc, key string) {
	key = SurfaceCodeword(seed, name, "description")
	return what + " Description codeword: " + key + ".", key
}

// emptyInput is the input schema of a tool that takes no arguments.
var emptyInput = json.RawMessage(`{"type":"object","properties":{}}`)

// A SurfaceConfig selects the lab's surface.
type SurfaceConfig struct {
	Groups []SurfaceGroup
	// Seed is the lab's -seed, mixed into every codeword.
	Seed string
	// ResultSize is the text of SurfaceSize's results (-result-size).
	ResultSize Instructions
	// Count, when more than the lab's own three tools, is how many tools
	// the lab serves in all (-tools): generated ones follow its own.
	// NameLength, when set, adds a tool whose name is that many
	// characters (-tool-name-length, labvocab.LongToolName).
	Count, NameLength int
	// HangFor, when set, is how long SurfaceHang's tool takes to answer
	// (-hang-for); it never answers otherwise.
	HangFor time.Duration
}

// Has reports whether the group g is selected.
func (c SurfaceConfig) Has(g SurfaceGroup) bool { return slices.Contains(c.Groups, g) }

// Tools lists the surface's tools, group by group in SurfaceGroups' order.
func (c SurfaceConfig) Tools() ([]SurfaceTool, error) {
	var out []SurfaceTool
	for _, g := range c.Groups {
		var ts []SurfaceTool
		var err error
		switch g {
		case SurfaceResults:
			ts = resultTools(c.Seed)
		case SurfaceSize:
			ts, err = sizeTools(c.Seed, c.ResultSize)
		case SurfaceSchemas:
			ts = schemaTools(c.Seed)
		case SurfaceNames:
			ts = nameTools(c.Seed)
		case SurfaceReserved:
			ts = reservedTools(c.Seed)
		case SurfaceTwin:
			ts = []SurfaceTool{twinTool(c.Seed)}
		case SurfaceMeta:
			ts = metaTools(c.Seed)
		case SurfaceBad:
			ts = badTools(c.Seed)
		case SurfaceHang:
			ts = []SurfaceTool{hangTool(c.Seed, c.HangFor)}
		case SurfaceProtocol:
			ts = protocolTools(c.Seed)
		}
		if err != nil {
			return nil, err
		}
		for i := range ts {
			ts[i].Group = g
		}
		out = append(out, ts...)
	}
	if err := c.checkCounts(); err != nil {
		return nil, err
	}
	out = append(out, manyTools(c.Seed, c.Count)...)
	if c.NameLength > 0 {
		out = append(out, longNameTool(c.Seed, c.NameLength))
	}
	return out, nil
}

// addSurface adds the surface's tools, prompts and resources to s.
func addSurface(s *mcp.Server, tools []SurfaceTool, c SurfaceConfig) {
	for _, t := range tools {
		s.AddTool(t.Tool, t.handlerOn(s))
		if t.updates != nil {
			t.updates.add(s)
		}
	}
	if c.Has(SurfacePrompts) {
		addPromptsAndResources(s, c.Seed)
	}
}

// handlerOn answers a call of t, served by s; the middleware answers Raw
// and Hang tools before it (rawCall).
func (t SurfaceTool) handlerOn(s *mcp.Server) mcp.ToolHandler {
	var once sync.Once
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if t.adds != nil {
			once.Do(func() { s.AddTool(t.adds.Tool, t.adds.handlerOn(s)) })
			// The SDK notifies sessions 10 ms after a change; the
			// notification goes before the result.
			if err := sleep(ctx, listChangedWait); err != nil {
				return nil, err
			}
		}
		if t.updates != nil {
			if err := t.updates.update(ctx, s); err != nil {
				return nil, err
			}
		}
		switch {
		case t.ask != nil:
			return t.ask(ctx, req)
		case t.call == nil:
			return nil, fmt.Errorf("tool %s answers in the middleware", t.Tool.Name)
		}
		return t.call()
	}
}

// listChangedWait is how long a tool that adds one waits before it
// answers: the SDK sends notifications/tools/list_changed 10 ms after a
// change, and a client should have it before the call's result.
const listChangedWait = 200 * time.Millisecond

// textResult is a result of one text content block.
func textResult(text string) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
}
