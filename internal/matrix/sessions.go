package matrix

import (
	"encoding/json"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// sessionsPrompt is the sessions rows' prompt; the fake's script, not the
// prompt, makes the calls.
const sessionsPrompt = "Look up part BR-6201 with the lab's lookup_part tool, then list the bins with list_bins, then say in one line what you found."

// sessionsTurns bounds a sessions row's model turns: a loader of deferred
// tools (ToolSearch), the two calls, the answer, and one to spare.
const sessionsTurns = 5

// Sessions returns the built-in matrix sessions (docs/sessions.md): rows of
// three model turns, the fake calling a lab tool in the first and in the
// second and answering in the third, so that the three requests of one
// conversation show what the client keeps, moves or changes from turn to
// turn (analyze.Session): the prefix bytes, the instructions, the tools.
// The rotate row's lab lists its tools in a new order on every tools/list
// (-tool-order rotate), which tells whether the client keeps the server's
// order or sorts it. The reconnect row serves that lab over Streamable
// HTTP and loses the session after its first tools/call, so that the
// second call gets 404 and the client must open a new session between
// two turns: whether it lists the tools again (in a new order), whether
// it takes the new session's instructions (a text of its own,
// -session-texts) and what its next request keeps of the one before.
func Sessions() *Matrix {
	script := []fakeapi.Turn{
		{Tool: labvocab.MetaTool, Input: json.RawMessage(`{"part":"BR-6201"}`)},
		{Tool: "list_bins"},
	}
	m := &Matrix{Name: "sessions", Description: "what a client keeps, moves or changes of a server's text and tools from turn to turn",
		Repeats: 1, Prompt: sessionsPrompt, MaxTurns: sessionsTurns, Rows: []Row{
			{Name: "turns3", Label: "three model turns: lookup_part, list_bins, the answer; 1,000 characters of instructions",
				Args: lab.Args{Instr: "ascii:1000"}, Script: script, NoDelta: true},
			{Name: "turns3-rotate", Label: "the same, six tools listed in a new order on every tools/list (-tool-order rotate)",
				Args: lab.Args{Instr: "ascii:1000", Tools: 6, ToolOrder: lab.OrderRotate}, Script: script, NoDelta: true},
			{Name: "turns3-reconnect", Label: "the rotate row over Streamable HTTP, the session lost after the first tools/call (-drop-after-calls 1): the client must initialize again, and gets another text (-session-texts)",
				Args: lab.Args{Instr: "ascii:1000", Tools: 6, ToolOrder: lab.OrderRotate, DropAfterCalls: 1, SessionTexts: true}, Script: script, Transport: TransportHTTP, NoDelta: true},
		}}
	if err := m.Validate(); err != nil {
		panic("built-in matrix sessions: " + err.Error())
	}
	return m
}
