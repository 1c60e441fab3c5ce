package assess

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestProtocolFact: check says, for what the server declares of what the
// protocol matrix measured, what the client does; not measured for a
// profile without the protocol; nothing for a server that declares none;
// a fact whose runs disagree says so with each run's.
func TestProtocolFact(t *testing.T) {
	p := profiles.Profile{Protocol: &profiles.Protocol{Runs: 2, Facts: []profiles.ProtocolFact{
		{Feature: labvocab.FeatureListChanged, Does: labvocab.DoesNoRelist},
		{Feature: labvocab.FeatureAppOnly, Does: labvocab.DoesHidden},
		{Feature: labvocab.FeatureLog, Does: profiles.FateVaries, Held: []string{labvocab.DoesReaches, labvocab.DoesNeverReaches}},
		{Feature: labvocab.FeatureResourceUpdated, Does: labvocab.DoesNoSubscribe},
	}}}
	e := probe.EraResult{ToolsListChanged: true, ResourcesSubscribe: true, Capabilities: []string{"tools", "logging"}, Tools: []probe.Tool{
		{Name: "app", Meta: map[string]json.RawMessage{labvocab.MetaUI: json.RawMessage(`{"visibility":["app"]}`)}},
		{Name: "both", Meta: map[string]json.RawMessage{labvocab.MetaUI: json.RawMessage(`{"visibility":["app","model"]}`)}},
		{Name: "region", InputSchema: json.RawMessage(`{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"R"}}}`)},
	}}
	fs := protocolFact(p, e, nil, nil)
	if len(fs) != 1 || !fs[0].Measured {
		t.Fatalf("facts %+v", fs)
	}
	for _, want := range []string{
		"tools/list_changed: " + labvocab.DoesNoRelist,
		"log messages: varies from run to run (reaches the model; never reaches the model)",
		"app-only tools (1): " + labvocab.DoesHidden,
		"tools with x-mcp-header (1): " + NotMeasured,
		"resources/updated (resources.subscribe): " + labvocab.DoesNoSubscribe,
	} {
		if !strings.Contains(fs[0].Value, want) {
			t.Errorf("fact %q lacks %q", fs[0].Value, want)
		}
	}
	if fs := protocolFact(profiles.Profile{}, e, nil, nil); len(fs) != 1 || fs[0].Measured || !strings.HasPrefix(fs[0].Value, NotMeasured+" (the server has tools/list_changed, resources/updated (resources.subscribe), log messages") {
		t.Errorf("a profile without the protocol: %+v", fs)
	}
	plain := probe.EraResult{Capabilities: []string{"tools"}, Tools: []probe.Tool{{Name: "plain"}}}
	if fs := protocolFact(p, plain, []probe.CallResult{{Tool: "plain", Heard: []string{"notifications/cancelled"}}}, nil); fs != nil {
		t.Errorf("a server that declares and sends nothing of it: %+v", fs)
	}
	// The modern era takes the facts measured over 2026-07-28: the
	// modern list's, or not measured where the client was not measured
	// speaking it.
	modern := e
	modern.Era = probe.Modern
	if fs := protocolFact(p, modern, nil, nil); len(fs) != 1 || !strings.Contains(fs[0].Value, "tools/list_changed: "+NotMeasured) || strings.Contains(fs[0].Value, labvocab.DoesNoRelist) {
		t.Errorf("the modern era of a client measured in the legacy one alone: %+v", fs)
	}
	p.Protocol.Modern = []profiles.ProtocolFact{{Feature: labvocab.FeatureListChanged, Does: labvocab.DoesReaches}}
	if fs := protocolFact(p, modern, nil, nil); len(fs) != 1 || !strings.Contains(fs[0].Value, "tools/list_changed: "+labvocab.DoesReaches) {
		t.Errorf("the modern era's own fact: %+v", fs)
	}
	p.Protocol.Modern = nil
	// What a server sent during check's calls.
	calls := []probe.CallResult{{Tool: "a", Heard: []string{"roots/list", "notifications/message"}}, {Tool: "b", Heard: []string{"roots/list"}}}
	p.Protocol.Facts = append(p.Protocol.Facts, profiles.ProtocolFact{Feature: labvocab.FeatureRoots, Does: "result: 1 roots"})
	fs = protocolFact(p, plain, calls, nil)
	if len(fs) != 1 || !strings.Contains(fs[0].Value, `roots/list (sent during ["a", "b"]): result: 1 roots`) ||
		!strings.Contains(fs[0].Value, `notifications/message (sent during ["a"]): varies`) {
		t.Errorf("facts of what the server sent during calls: %+v", fs)
	}
	if strings.Contains(fs[0].Value, "its turn") {
		t.Errorf("a turn said without a turn measured: %+v", fs)
	}
	// A client whose turn never ended in a run (Copilot CLI over
	// 2026-07-28): said with what the server sent, in that era only.
	hung := labvocab.DoesTurnNeverEnds + "; no answer to sampling, roots/list"
	p.Protocol.Modern = []profiles.ProtocolFact{{Feature: labvocab.FeatureRoots, Does: labvocab.DoesInputRequired + labvocab.DoesNoAnswer}, {Feature: labvocab.FeatureTurn, Does: hung}}
	plainModern := plain
	plainModern.Era = probe.Modern
	if fs := protocolFact(p, plainModern, calls, nil); len(fs) != 1 || !strings.Contains(fs[0].Value, "its turn: "+hung) {
		t.Errorf("the modern era of a client whose turn never ended: %+v", fs)
	}
	if fs := protocolFact(p, plain, calls, nil); strings.Contains(fs[0].Value, "its turn") {
		t.Errorf("the legacy era says the modern era's turn: %+v", fs)
	}
	if fs := protocolFact(p, modern, nil, nil); strings.Contains(fs[0].Value, "its turn") {
		t.Errorf("its turn said for a server that sent nothing during calls: %+v", fs)
	}
	// A modern-only server, called in the modern era: the asks of its
	// input_required results are what it sent.
	asked := []probe.CallResult{{Tool: "summarize", InputRequired: []string{"sampling/createMessage"}}}
	p.Protocol.Modern = append(p.Protocol.Modern, profiles.ProtocolFact{Feature: labvocab.FeatureSampling, Does: labvocab.DoesInputRequired + labvocab.DoesNoAnswer})
	if fs := protocolFact(p, plainModern, asked, nil); len(fs) != 1 ||
		!strings.Contains(fs[0].Value, `sampling/createMessage in input_required (sent during ["summarize"]): `+labvocab.DoesInputRequired+labvocab.DoesNoAnswer) ||
		!strings.Contains(fs[0].Value, "its turn: "+hung) {
		t.Errorf("a modern-only server's input_required sampling: %+v", fs)
	}
	p.Protocol.Modern[1].Does = labvocab.DoesTurnEnds
	if fs := protocolFact(p, plainModern, calls, nil); strings.Contains(fs[0].Value, "its turn") {
		t.Errorf("a turn that ends said: %+v", fs)
	}
}

// TestToolsAdded: a client measured never to give the model a tool a
// server adds is degraded for a server that announced a change during
// -call, info for one that only declares tools.listChanged, and no
// finding where the model gets the new tool with the call's result, for a
// server that declares nothing, or in the modern era where the client was
// not measured speaking it.
func TestToolsAdded(t *testing.T) {
	fact := func(does string) profiles.Profile {
		return profiles.Profile{Client: "c", Version: "1", Protocol: &profiles.Protocol{Runs: 1, Facts: []profiles.ProtocolFact{{Feature: labvocab.FeatureListChanged, Does: does}}}}
	}
	declares := probe.EraResult{Era: probe.Legacy, ToolsListChanged: true}
	announced := []probe.CallResult{{Tool: "add_tool", Heard: []string{"notifications/tools/list_changed"}}}
	for _, tc := range []struct {
		name  string
		p     profiles.Profile
		e     probe.EraResult
		calls []probe.CallResult
		want  string // the severity, "" for no finding
		text  string
	}{
		{"never relists, announced", fact(labvocab.DoesNoRelist), probe.EraResult{Era: probe.Legacy}, announced, "degraded", `during ["add_tool"]`},
		{"never relists, declared", fact(labvocab.DoesNoRelist), declares, nil, "info", "would never reach the model"},
		{"restarts", fact(labvocab.DoesRestarts), declares, announced, "degraded", "starts the server anew"},
		{"relists, never offers", fact(labvocab.DoesRelistsNever), declares, announced, "degraded", "never offers the model the new tool"},
		{"relists, after the result", fact(labvocab.DoesRelistsLater), declares, announced, "info", "only after the result"},
		{"relists with the result", fact(labvocab.DoesRelistsWith), declares, announced, "", ""},
		{"declares nothing", fact(labvocab.DoesNoRelist), probe.EraResult{Era: probe.Legacy}, nil, "", ""},
		{"not measured", profiles.Profile{Client: "c", Version: "1"}, declares, announced, "", ""},
		{"modern, not measured there", fact(labvocab.DoesNoRelist), probe.EraResult{Era: probe.Modern, ToolsListChanged: true}, announced, "", ""},
	} {
		var l findingList
		addedToolsFindings(&l, View{Profile: "c@1", added: addedToolsFate(tc.p, tc.e, tc.calls)})
		switch {
		case tc.want == "" && len(l) > 0:
			t.Errorf("%s: %+v, want no finding", tc.name, l)
		case tc.want == "":
		case len(l) != 1 || string(l[0].Severity) != tc.want || l[0].Code != ToolsAdded || !strings.Contains(l[0].Message, tc.text):
			t.Errorf("%s: %+v, want one %s tools-added saying %q", tc.name, l, tc.want, tc.text)
		}
	}
}

// TestTaskFindings: a tool to be called as a task is lost (broken) in a
// client measured to end the model's call of it or not to offer it, info
// in one that calls it without a task, and no finding where the client
// calls it as a task, where nothing was measured, or for a server without
// such a tool.
func TestTaskFindings(t *testing.T) {
	fact := func(does string) profiles.Profile {
		return profiles.Profile{Client: "c", Version: "1", Protocol: &profiles.Protocol{Runs: 2, Facts: []profiles.ProtocolFact{{Feature: labvocab.FeatureTask, Does: does}}}}
	}
	tasks := probe.EraResult{Era: probe.Legacy, Tools: []probe.Tool{{Name: "plain"}, {Name: "long_job", TaskSupport: "required"}, {Name: "maybe", TaskSupport: "optional"}}}
	for _, tc := range []struct {
		name string
		p    profiles.Profile
		e    probe.EraResult
		want string // the severity, "" for no finding
	}{
		{"ends the call", fact(labvocab.DoesNeverCalls), tasks, "broken"},
		{"not offered", fact(labvocab.DoesHidden), tasks, "broken"},
		{"calls without a task", fact(labvocab.DoesCallsPlain), tasks, "info"},
		{"calls as a task", fact(labvocab.DoesCallsAsTask), tasks, ""},
		{"not measured", profiles.Profile{Client: "c", Version: "1"}, tasks, ""},
		{"no such tool", fact(labvocab.DoesNeverCalls), probe.EraResult{Era: probe.Legacy, Tools: []probe.Tool{{Name: "maybe", TaskSupport: "optional"}}}, ""},
	} {
		var l findingList
		taskFindings(&l, View{Profile: "c@1", tasks: taskFate(tc.p, tc.e)})
		switch {
		case tc.want == "" && len(l) > 0:
			t.Errorf("%s: %+v, want no finding", tc.name, l)
		case tc.want == "":
		case len(l) != 1 || string(l[0].Severity) != tc.want || l[0].Code != TaskRequired || l[0].Tool != "long_job":
			t.Errorf("%s: %+v, want one %s task-required about long_job", tc.name, l, tc.want)
		}
	}
}

// TestTurnFindings: a tool whose result asks in input_required for what a
// client, asked for it alone, never went on from is broken for it; no
// finding for an ask it goes on after, where it varied, where it was not
// measured, nor in the 2025 era (no ask is in a result there).
func TestTurnFindings(t *testing.T) {
	alone := func(does string, held ...string) profiles.Profile {
		return profiles.Profile{Client: "c", Version: "1", Protocol: &profiles.Protocol{Runs: 2,
			Alone: []profiles.ProtocolFact{{Feature: labvocab.FeatureSampling, Does: does, Held: held}}}}
	}
	modern := probe.EraResult{Era: probe.Modern}
	asked := []probe.CallResult{{Tool: "plain"}, {Tool: "summarize", InputRequired: []string{"roots/list", "sampling/createMessage"}}}
	for _, tc := range []struct {
		name  string
		p     profiles.Profile
		e     probe.EraResult
		calls []probe.CallResult
		want  bool
	}{
		{"never ends", alone(labvocab.DoesAloneNeverEnds), modern, asked, true},
		{"goes on", alone(labvocab.DoesAloneGoesOn), modern, asked, false},
		{"ends without the result", alone(labvocab.DoesAloneEnds), modern, asked, false},
		{"varies", alone(profiles.FateVaries, labvocab.DoesAloneNeverEnds, labvocab.DoesAloneGoesOn), modern, asked, false},
		{"not measured", profiles.Profile{Client: "c", Version: "1"}, modern, asked, false},
		{"legacy era", alone(labvocab.DoesAloneNeverEnds), probe.EraResult{Era: probe.Legacy}, asked, false},
		{"another ask", alone(labvocab.DoesAloneNeverEnds), modern, []probe.CallResult{{Tool: "summarize", InputRequired: []string{"roots/list"}}}, false},
	} {
		var l findingList
		turnFindings(&l, View{Profile: "c@1", stopped: stoppedTurns(tc.p, tc.e, tc.calls)})
		switch {
		case !tc.want && len(l) > 0:
			t.Errorf("%s: %+v, want no finding", tc.name, l)
		case !tc.want:
		case len(l) != 1 || l[0].Severity != loss.Broken || l[0].Code != TurnNeverEnds || l[0].Tool != "summarize" ||
			!strings.Contains(l[0].Message, "asks for sampling/createMessage in input_required"):
			t.Errorf("%s: %+v, want one broken turn-never-ends about summarize's sampling", tc.name, l)
		}
	}
}
