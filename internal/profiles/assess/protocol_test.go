package assess

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/labvocab"
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
	}}}
	e := probe.EraResult{ToolsListChanged: true, Capabilities: []string{"tools", "logging"}, Tools: []probe.Tool{
		{Name: "app", Meta: map[string]json.RawMessage{labvocab.MetaUI: json.RawMessage(`{"visibility":["app"]}`)}},
		{Name: "both", Meta: map[string]json.RawMessage{labvocab.MetaUI: json.RawMessage(`{"visibility":["app","model"]}`)}},
		{Name: "region", InputSchema: json.RawMessage(`{"type":"object","properties":{"r":{"type":"string","x-mcp-header":"R"}}}`)},
	}}
	fs := protocolFact(p, e, nil)
	if len(fs) != 1 || !fs[0].Measured {
		t.Fatalf("facts %+v", fs)
	}
	for _, want := range []string{
		"tools/list_changed: " + labvocab.DoesNoRelist,
		"log messages: varies from run to run (reaches the model; never reaches the model)",
		"app-only tools (1): " + labvocab.DoesHidden,
		"tools with x-mcp-header (1): " + NotMeasured,
	} {
		if !strings.Contains(fs[0].Value, want) {
			t.Errorf("fact %q lacks %q", fs[0].Value, want)
		}
	}
	if fs := protocolFact(profiles.Profile{}, e, nil); len(fs) != 1 || fs[0].Measured || !strings.HasPrefix(fs[0].Value, NotMeasured+" (the server has tools/list_changed, log messages") {
		t.Errorf("a profile without the protocol: %+v", fs)
	}
	plain := probe.EraResult{Capabilities: []string{"tools"}, Tools: []probe.Tool{{Name: "plain"}}}
	if fs := protocolFact(p, plain, []probe.CallResult{{Tool: "plain", Heard: []string{"notifications/cancelled"}}}); fs != nil {
		t.Errorf("a server that declares and sends nothing of it: %+v", fs)
	}
	// What a server sent during check's calls.
	calls := []probe.CallResult{{Tool: "a", Heard: []string{"roots/list", "notifications/message"}}, {Tool: "b", Heard: []string{"roots/list"}}}
	p.Protocol.Facts = append(p.Protocol.Facts, profiles.ProtocolFact{Feature: labvocab.FeatureRoots, Does: "result: 1 roots"})
	fs = protocolFact(p, plain, calls)
	if len(fs) != 1 || !strings.Contains(fs[0].Value, `roots/list (sent during ["a", "b"]): result: 1 roots`) ||
		!strings.Contains(fs[0].Value, `notifications/message (sent during ["a"]): varies`) {
		t.Errorf("facts of what the server sent during calls: %+v", fs)
	}
}
