package assess

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
)

// protocolFactName is the name of protocolFact's fact.
const protocolFactName = "protocol"

// protocolFact says what p's client does with what the server in era e
// declares that the protocol matrix measured: tools/list_changed (the
// capability), resources/updated (resources.subscribe), log messages (the logging capability), tools for an app
// alone (_meta.ui.visibility without "model") and arguments bound to an
// HTTP header (x-mcp-header), tools to be called as tasks
// (execution.taskSupport "required"), and what the server sent while check's
// calls ran (-call: elicitation, sampling, roots, log messages, progress,
// a list change), and whether the client's turn ended when a run of p's
// did not; a feature p did not measure in e's era is not measured
// (the modern era's facts are the runs over 2026-07-28, Protocol.FactIn).
// No fact when the server declares and sends none of them.
func protocolFact(p profiles.Profile, e probe.EraResult, calls []probe.CallResult, ps parsedSchemas) []Fact {
	var uses, parts []string
	say := func(what, feature string) {
		uses = append(uses, what)
		f, ok := p.Protocol.FactIn(e.Era == probe.Modern, feature)
		switch {
		case !ok:
			parts = append(parts, what+": "+NotMeasured)
		case f.Does == profiles.FateVaries:
			parts = append(parts, what+": varies from run to run ("+strings.Join(f.Held, "; ")+")")
		default:
			parts = append(parts, what+": "+f.Does)
		}
	}
	if e.ToolsListChanged {
		say("tools/list_changed", labvocab.FeatureListChanged)
	}
	if e.ResourcesSubscribe {
		say("resources/updated (resources.subscribe)", labvocab.FeatureResourceUpdated)
	}
	if slices.Contains(e.Capabilities, "logging") {
		say("log messages", labvocab.FeatureLog)
	}
	if n := countTools(e.Tools, appOnly); n > 0 {
		say(fmt.Sprintf("app-only tools (%s)", table.Num(n)), labvocab.FeatureAppOnly)
	}
	if n := countTools(e.Tools, func(t probe.Tool) bool { return ps.of(t.InputSchema).header }); n > 0 {
		say(fmt.Sprintf("tools with %s (%s)", labvocab.KeywordHeader, table.Num(n)), labvocab.FeatureHeader)
	}
	if n := countTools(e.Tools, func(t probe.Tool) bool { return t.TaskSupport == "required" }); n > 0 {
		say(fmt.Sprintf("tools to be called as tasks (%s)", table.Num(n)), labvocab.FeatureTask)
	}
	// What the server sent while check's calls ran (-call).
	heard, during := heardDuring(calls)
	for _, m := range heard {
		say(fmt.Sprintf("%s (sent during %s)", m, nameList(during[m])), heardFeature[strings.TrimSuffix(m, inInputRequired)])
	}
	// A client whose turn did not end in a run where it was sent them,
	// and what became of it after each ask alone.
	if f, ok := p.Protocol.FactIn(e.Era == probe.Modern, labvocab.FeatureTurn); ok && f.Does != labvocab.DoesTurnEnds && len(heard) > 0 {
		say("its turn", labvocab.FeatureTurn)
	}
	for _, m := range heard {
		if f, ok := p.Protocol.AloneFact(heardFeature[strings.TrimSuffix(m, inInputRequired)]); ok && e.Era == probe.Modern && strings.HasSuffix(m, inInputRequired) {
			parts = append(parts, m+", asked alone: "+strings.Join(append([]string{f.Does}, f.Held...), "; "))
		}
	}
	switch {
	case len(uses) == 0:
		return nil
	case p.Protocol == nil:
		return []Fact{{Name: protocolFactName, Value: NotMeasured + " (the server has " + strings.Join(uses, ", ") + ")"}}
	}
	return []Fact{{Name: protocolFactName, Value: strings.Join(parts, "; "), Measured: true}}
}

// heardFeature is the feature of a request or notification a server sent
// during a call (probe.CallResult.Heard); an elicitation's mode is not
// told by its method: form, the mode every client that elicits declares.
var heardFeature = map[string]string{
	"elicitation/create":     labvocab.FeatureElicitForm,
	"sampling/createMessage": labvocab.FeatureSampling,
	"roots/list":             labvocab.FeatureRoots,
	"notifications/message":  labvocab.FeatureLog,
	"notifications/progress": labvocab.FeatureProgress,
	listChanged:              labvocab.FeatureListChanged,
}

// inInputRequired follows the method of an ask a server made in a call's
// input_required result (2026-07-28, probe.CallResult.InputRequired)
// rather than as a request of its own.
const inInputRequired = " in input_required"

// listChanged is the notification a server sends when its tools change.
const listChanged = "notifications/tools/list_changed"

// heardDuring is what the server sent during check's calls of the
// features heardFeature knows, in the order first heard, and per method
// the tools whose call it was sent during; an ask in a call's
// input_required result is its method and inInputRequired.
func heardDuring(calls []probe.CallResult) (heard []string, during map[string][]string) {
	during = map[string][]string{}
	for _, c := range calls {
		asked := make([]string, 0, len(c.InputRequired))
		for _, m := range c.InputRequired {
			asked = append(asked, m+inInputRequired)
		}
		for _, m := range append(slices.Clone(c.Heard), asked...) {
			if _, ok := heardFeature[strings.TrimSuffix(m, inInputRequired)]; !ok {
				continue
			}
			if !slices.Contains(heard, m) {
				heard = append(heard, m)
			}
			if !slices.Contains(during[m], c.Tool) {
				during[m] = append(during[m], c.Tool)
			}
		}
	}
	return heard, during
}

func countTools(tools []probe.Tool, is func(probe.Tool) bool) int {
	n := 0
	for _, t := range tools {
		if is(t) {
			n++
		}
	}
	return n
}

// appOnly reports whether t's _meta.ui.visibility (MCP Apps) leaves the
// model out: a list without "model".
func appOnly(t probe.Tool) bool {
	var ui struct {
		Visibility []string `json:"visibility"`
	}
	raw, ok := t.Meta[labvocab.MetaUI]
	return ok && json.Unmarshal(raw, &ui) == nil && len(ui.Visibility) > 0 && !slices.Contains(ui.Visibility, "model")
}

// addedTools is what a client does with a tool a server adds after the
// start, for a server that declares tools.listChanged or announced a
// change during a -call: the profile's measured fate (a labvocab.Does*,
// or NotMeasured), "" when the server does neither; and the tools whose
// call sent tools/list_changed.
type addedTools struct {
	does   string
	during []string
}

func addedToolsFate(p profiles.Profile, e probe.EraResult, calls []probe.CallResult) addedTools {
	_, during := heardDuring(calls)
	a := addedTools{during: during[listChanged]}
	if !e.ToolsListChanged && len(a.during) == 0 {
		return addedTools{}
	}
	a.does = NotMeasured
	if f, ok := p.Protocol.FactIn(e.Era == probe.Modern, labvocab.FeatureListChanged); ok {
		a.does = f.Does
	}
	return a
}

// addedToolsLost are the fates in which the model never has a tool the
// server adds after the start, each in the words of a finding.
var addedToolsLost = map[string]string{
	labvocab.DoesNoRelist:     "the client never lists the tools again",
	labvocab.DoesRestarts:     "the client never lists the tools again: it starts the server anew for each call",
	labvocab.DoesRelistsNever: "the client lists the tools again but never offers the model the new tool",
	labvocab.DoesNotListening: "over 2026-07-28 the client opens no subscriptions/listen stream, so no tools/list_changed reaches it",
}

// addedToolsFindings reports, for view v, a client that never gives the
// model a tool the server adds: degraded when the server announced one
// during check's -call, info when it only declares that it may.
func addedToolsFindings(l *findingList, v View) {
	a := v.added
	lost, ok := addedToolsLost[a.does]
	switch {
	case ok && len(a.during) > 0:
		l.of(v, ToolsAdded, "", "the server announced a change of its tools (tools/list_changed, during %s), and %s (measured): a tool the server adds never reaches the model", nameList(a.during), lost).
			lose("tools the server adds never reach the model")
	case ok:
		l.of(v, ToolsAdded, "", "the server declares tools.listChanged, and %s (measured): a tool the server adds later would never reach the model", lost).
			at(loss.Info).lose("a tool added later would never reach the model")
	case a.does == labvocab.DoesRelistsLater:
		l.of(v, ToolsAdded, "", "the client lists the tools again after tools/list_changed, and the model has a new tool only after the result of the call that announced it (measured)").
			at(loss.Info).lose("a tool added during a call reaches the model after its result")
	}
}

// taskTools are the tools of an era to be called as tasks
// (execution.taskSupport "required") and what a client does with such a
// tool, as its profile measured (a labvocab.Does*, or NotMeasured); does
// is "" when the era has none.
type taskTools struct {
	tools []string
	does  string
}

func taskFate(p profiles.Profile, e probe.EraResult) taskTools {
	var t taskTools
	for _, tool := range e.Tools {
		if tool.TaskSupport == "required" {
			t.tools = append(t.tools, tool.Name)
		}
	}
	if len(t.tools) == 0 {
		return taskTools{}
	}
	t.does = NotMeasured
	if f, ok := p.Protocol.FactIn(e.Era == probe.Modern, labvocab.FeatureTask); ok && f.Does != profiles.FateVaries {
		t.does = f.Does
	}
	return t
}

// taskFindings: a client measured never to let a call of a tool that must
// be called as a task reach the server (the TypeScript SDK's client ends
// the call: opencode 1.18.33 and six more), or never to offer one, loses
// each such tool; one that calls
// it as any tool, without a task, keeps it, and the server gets no task
// (info).
func taskFindings(l *findingList, v View) {
	for _, tool := range v.tasks.tools {
		switch v.tasks.does {
		case labvocab.DoesNeverCalls:
			l.of(v, TaskRequired, tool, "the tool must be called as a task (execution.taskSupport \"required\"), and the client ends the model's call of it before it reaches the server (measured): the tool is lost to the model").
				tool(tool).lose("the model cannot use it: the client ends its calls")
		case labvocab.DoesHidden:
			l.of(v, TaskRequired, tool, "the tool must be called as a task (execution.taskSupport \"required\"), and the client does not offer it to the model (measured)").
				tool(tool).lose("the model cannot use it: the client does not offer it")
		case labvocab.DoesCallsPlain:
			l.of(v, TaskRequired, tool, "the tool must be called as a task (execution.taskSupport \"required\"), and the client calls it as any tool, without a task (measured)").
				tool(tool).at(loss.Info).lose("called without a task: the call waits for the result")
		}
	}
}

// A stoppedTurn is a tool whose call's result asked, in input_required
// (2026-07-28), for what a client was measured never to go on from when
// asked for it alone: its turn never ends (Protocol.Alone).
type stoppedTurn struct{ tool, method string }

// stoppedTurns are view e's calls whose asks stop p's client's turn,
// each tool once, with the first of its asks that does. None outside the
// 2026-07-28 era, where no ask is in a result.
func stoppedTurns(p profiles.Profile, e probe.EraResult, calls []probe.CallResult) []stoppedTurn {
	if e.Era != probe.Modern {
		return nil
	}
	var out []stoppedTurn
	for _, c := range calls {
		for _, m := range c.InputRequired {
			if f, ok := p.Protocol.AloneFact(heardFeature[m]); ok && f.Does == labvocab.DoesAloneNeverEnds {
				out = append(out, stoppedTurn{tool: c.Tool, method: m})
				break
			}
		}
	}
	return out
}

// turnFindings reports, for view v, each tool whose result asks for what
// the client never answers, and after which its turn never ends.
func turnFindings(l *findingList, v View) {
	for _, t := range v.stopped {
		l.of(v, TurnNeverEnds, t.tool, "the tool's result asks for %s in input_required (2026-07-28), and the client, asked for it alone, never answers and its turn never ends (measured: the run timed out): the model never gets the result, and the user's turn waits for good", t.method).
			tool(t.tool).lose("its call never returns: the client's turn never ends")
	}
}
