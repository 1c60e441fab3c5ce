package matrix

import (
	"slices"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// The rows of the protocol matrix: the lab's protocol group, whose tools
// ask and announce while called, over stdio in the 2025 era and in both
// eras (a client that speaks 2026-07-28 gets its asks in input_required
// results), and the same two over Streamable HTTP.
const (
	ProtocolRow           = "protocol"
	ProtocolModernRow     = "protocol-dual"
	ProtocolHTTPRow       = "protocol-http"
	ProtocolModernHTTPRow = "protocol-dual-http"
	ProtocolAsksRow       = "protocol-asks"
)

// ProtocolRows are the names of the protocol matrix's rows, in its order.
var ProtocolRows = []string{ProtocolRow, ProtocolModernRow, ProtocolHTTPRow, ProtocolModernHTTPRow, ProtocolAsksRow}

// protocolLimit bounds each run of the protocol rows (Row.Timeout): the
// slowest client's run takes about 12 s (Cline CLI: the lab's two waits,
// lab.AskTimeout, for asks it never answers); a client that never ends its
// turn (Copilot CLI over 2026-07-28) costs this long, not the runner's
// -timeout.
const protocolLimit = "60s"

// protocolIdle ends a run of the protocol rows once nothing new happened
// for this long after its first model request (Row.Idle): the longest
// quiet spell of 138 runs that ended (2026-12-07) was 5.0 s, the lab's own
// wait for an answer (lab.AskTimeout); a turn that never ends costs this
// after its last message, not protocolLimit.
const protocolIdle = "20s"

// protocolTurns bounds the protocol row's model turns: a loader of
// deferred tools, the calls, the call of the added tool (with a loader of
// its own), the answer.
const protocolTurns = 5

// asksScript is a turn per tool that asks (labvocab.ProtocolAsks), in
// their order, each the call of all's for that tool.
func asksScript(all fakeapi.Turn) []fakeapi.Turn {
	var turns []fakeapi.Turn
	for _, a := range labvocab.ProtocolAsks {
		k := slices.IndexFunc(all.Calls, func(c fakeapi.Call) bool { return c.Tool == a.Tool })
		if k < 0 {
			panic("built-in matrix protocol: the group has no tool " + a.Tool)
		}
		turns = append(turns, fakeapi.Turn{Tool: a.Tool, Key: all.Calls[k].Key})
	}
	return turns
}

// Protocol returns the built-in matrix protocol (docs/protocol.md): what
// a client does with what a server asks (elicitation in form and URL mode,
// sampling, roots) and announces (a log message, progress, a tool added
// with tools/list_changed) while a tool runs, and with tools that declare
// (an app-only tool, x-mcp-header). The fake calls every tool of the
// group in one turn, then the added tool in the next: whether the client
// listed the tools again and from which request the model has it. The
// second row serves both eras; the third serves the first's over
// Streamable HTTP (the asks go out on the call's stream), the fourth the
// second's. The fifth, protocol-asks, serves both eras and has the fake
// call each tool that asks alone, in a turn of its own (asksScript): the
// ask after which a client's turn never goes on is the one that stops it.
func Protocol() *Matrix {
	script := surfaceScript(lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceProtocol}}, "")
	asks := asksScript(script[0])
	script = append(script, fakeapi.Turn{Tool: labvocab.ProtocolAddedTool, Key: lab.SurfaceCodeword("", labvocab.ProtocolAddedTool, "description")})
	m := &Matrix{Name: "protocol", Description: "what a client does with what a server asks and announces while a tool runs",
		Repeats: 1, Prompt: surfacePrompt, MaxTurns: protocolTurns, Rows: []Row{
			{Name: ProtocolRow, Label: "asks and announcements during calls", Args: lab.Args{Instr: "none", Surface: string(lab.SurfaceProtocol)}, NoDelta: true, Script: script, Timeout: protocolLimit, Idle: protocolIdle},
			{Name: ProtocolModernRow, Label: "the same from a server of both eras: over 2026-07-28 the asks are input_required results", Args: lab.Args{Instr: "none", Surface: string(lab.SurfaceProtocol), Eras: lab.ModeBoth},
				NoDelta: true, Script: script, Timeout: protocolLimit, Idle: protocolIdle},
			{Name: ProtocolHTTPRow, Label: "the first row's over Streamable HTTP", Args: lab.Args{Instr: "none", Surface: string(lab.SurfaceProtocol)},
				Transport: TransportHTTP, NoDelta: true, Script: script, Timeout: protocolLimit, Idle: protocolIdle},
			{Name: ProtocolModernHTTPRow, Label: "the second row's over Streamable HTTP", Args: lab.Args{Instr: "none", Surface: string(lab.SurfaceProtocol), Eras: lab.ModeBoth},
				Transport: TransportHTTP, NoDelta: true, Script: script, Timeout: protocolLimit, Idle: protocolIdle},
			{Name: ProtocolAsksRow, Label: "the second row's asks, each alone in a turn of its own", Args: lab.Args{Instr: "none", Surface: string(lab.SurfaceProtocol), Eras: lab.ModeBoth},
				NoDelta: true, Script: asks, MaxTurns: 2*len(asks) + 1, Timeout: protocolLimit, Idle: protocolIdle},
		}}
	if err := m.Validate(); err != nil {
		panic("built-in matrix protocol: " + err.Error())
	}
	return m
}
