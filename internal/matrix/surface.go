package matrix

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// surfacePrompt is the surface rows' prompt; the fake's script, not the
// prompt, makes the calls.
const surfacePrompt = "Call the lab's tools and tell me what each returned."

// ApprovalRow is the surface row that calls the meta group's tools: with
// annotations of every kind, what a client's approval mode lets run.
const ApprovalRow = "surface-approval"

// surfaceTurns bounds a surface row's model turns: a loader of deferred
// tools (ToolSearch), the calls, the answer, and one to spare.
const surfaceTurns = 4

// Surface returns the built-in matrix surface (docs/surface.md): one row
// per group of the lab's surface, each calling its tools in one scripted
// turn (all at once), so that the request that follows carries every
// result; the twin row runs two labs with one tool name. The hang group is
// left out: a tool that never answers holds a client up to its own tool
// timeout. Built from the lab's catalogue, so the calls' keys are the
// tools' own codewords.
func Surface() *Matrix {
	m := &Matrix{Name: "surface", Description: "what of a server's results, schemas, names and metadata reaches the model",
		Repeats: 1, Prompt: surfacePrompt, MaxTurns: surfaceTurns}
	for _, g := range []struct {
		group lab.SurfaceGroup
		label string
		call  bool
	}{
		{lab.SurfaceResults, "result parts", true},
		{lab.SurfaceSize, "long results", true},
		{lab.SurfaceSchemas, "input schemas", true},
		{lab.SurfaceNames, "tool names", true},
		{lab.SurfaceReserved, "tools named as clients name their own", true},
		{lab.SurfaceMeta, "tool _meta, annotations, title, icon", false},
		{lab.SurfacePrompts, "prompts and resources", false},
		{lab.SurfaceBad, "results a client must survive", true},
	} {
		row := Row{Name: "surface-" + string(g.group), Label: g.label, Args: lab.Args{Instr: "none", Surface: string(g.group)}, NoDelta: true}
		if g.call {
			row.Script = surfaceScript(lab.SurfaceConfig{Groups: []lab.SurfaceGroup{g.group}}, "")
		}
		m.Rows = append(m.Rows, row)
	}
	m.Rows = append(m.Rows, resourcesRow())
	twin := Row{Name: "surface-twin", Label: "two servers, one tool name", Args: lab.Args{Instr: "none", Surface: string(lab.SurfaceTwin)}, NoDelta: true,
		Servers: []LabServer{{Name: ServerName}, {Name: ServerName + "2"}}}
	for _, s := range twin.Servers {
		twin.Script = append(twin.Script, surfaceScript(lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceTwin}}, s.Name)...)
	}
	twin.Script = []fakeapi.Turn{mergeTurns(twin.Script)}
	m.Rows = append(m.Rows, twin)
	// The names again from a lab named with a hyphen, as most servers
	// are (server-filesystem): what the client makes of a server's name
	// in the prefix it puts before a tool's.
	hyphen := Row{Name: "surface-names-server", Label: "tool names, from a server named with a hyphen", Args: lab.Args{Instr: "none", Surface: string(lab.SurfaceNames)}, NoDelta: true,
		Servers: []LabServer{{Name: ServerNameHyphen}}}
	hyphen.Script = surfaceScript(lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceNames}}, ServerNameHyphen)
	m.Rows = append(m.Rows, hyphen)
	// The meta group with its tools called: what the client does with a
	// call of a read-only, a destructive and an unannotated tool in its
	// arm's approval mode (run, refused and what the model is told, or
	// no result).
	m.Rows = append(m.Rows, Row{Name: ApprovalRow, Label: "tools called in the arm's approval mode", Args: lab.Args{Instr: "none", Surface: string(lab.SurfaceMeta)}, NoDelta: true,
		Script: surfaceScript(lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceMeta}}, "")})
	if err := m.Validate(); err != nil {
		panic("built-in matrix surface: " + err.Error())
	}
	return m
}

// resourcesRow serves the prompts group (a resource, a template, a prompt)
// and has the model call the client's own resource tools, where it has
// them: list the resources, then read the lab's, so the request that
// follows shows what of the listed texts and of the resource's contents
// the client gave the model. Each client names them its own way, and its
// read tool takes its own input (Fit); a client without them makes no
// call.
func resourcesRow() Row {
	// server (Codex CLI, Kilo Code CLI, opencode, Claude Code), server_name
	// (Qwen Code, whose deferred tool's definition the fake does not see,
	// so it gets both), none (Gemini CLI).
	read := json.RawMessage(fmt.Sprintf(`{"server":%q,"server_name":%q,"uri":%q}`, ServerName, ServerName, labvocab.SurfaceResourceURI))
	var calls []fakeapi.Call
	for _, names := range [][2]string{
		{"list_mcp_resources", "read_mcp_resource"},     // Codex CLI, Gemini CLI, Kilo Code CLI, opencode, Qwen Code (read only)
		{"ListMcpResourcesTool", "ReadMcpResourceTool"}, // Claude Code
	} {
		calls = append(calls, fakeapi.Call{Tool: names[0], Input: json.RawMessage(`{}`), Fit: true}, fakeapi.Call{Tool: names[1], Input: read, Fit: true})
	}
	return Row{Name: "surface-resources", Label: "resources through the client's own tools", Args: lab.Args{Instr: "none", Surface: string(lab.SurfacePrompts)},
		NoDelta: true, Script: []fakeapi.Turn{{Calls: calls}}}
}

// surfaceScript is one turn calling every tool of c, whose lab is seeded
// with seed, each found by its key.
func surfaceScript(c lab.SurfaceConfig, seed string) []fakeapi.Turn {
	c.Seed, c.ResultSize = seed, lab.Instructions{Language: lab.English, Length: lab.MinLength}
	tools, err := c.Tools()
	if err != nil {
		panic("built-in matrix surface: " + err.Error())
	}
	var t fakeapi.Turn
	for _, st := range tools {
		t.Calls = append(t.Calls, fakeapi.Call{Tool: st.Tool.Name, Key: st.Key})
	}
	return []fakeapi.Turn{t}
}

// mergeTurns is one turn making every call of turns.
func mergeTurns(turns []fakeapi.Turn) fakeapi.Turn {
	var t fakeapi.Turn
	for _, x := range turns {
		t.Calls = append(t.Calls, x.Calls...)
	}
	return t
}

// ParseCall reads one -call (cli.ParseCall) as a scripted call.
func ParseCall(s string) (fakeapi.Call, error) {
	tool, in, err := cli.ParseCall(s)
	return fakeapi.Call{Tool: tool, Input: in}, err
}

// Call makes every row of m call the tools of calls, all in one scripted
// turn, with the prompt and turns of the surface rows: each result then
// records what of the server's real result reached the model. None
// changes nothing.
func (m *Matrix) Call(calls []fakeapi.Call) {
	if len(calls) == 0 {
		return
	}
	for i := range m.Rows {
		m.Rows[i].Call(calls)
	}
}

// Call makes row r call the tools of calls, all in one scripted turn,
// with the surface rows' prompt and turns (room for a client's loader of
// deferred tools before the call).
func (r *Row) Call(calls []fakeapi.Call) {
	calls = slices.Clone(calls)
	for i := range calls {
		calls[i].Server = r.ServerName() // the server's tool before a client's own of its name
	}
	r.Script = []fakeapi.Turn{{Calls: calls}}
	r.Prompt, r.MaxTurns = surfacePrompt, surfaceTurns
}

// ParseCalls reads every -call (ParseCall).
func ParseCalls(ss []string) ([]fakeapi.Call, error) {
	var out []fakeapi.Call
	for _, s := range ss {
		c, err := ParseCall(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
