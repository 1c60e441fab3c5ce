package profiles

import (
	"testing"
)

// TestOverHTTPProtocol: a profile's view over HTTP holds the protocol
// facts measured over HTTP, and none where only stdio's were: the stdio
// runs never stand for a server reached by URL.
func TestOverHTTPProtocol(t *testing.T) {
	stdio := []ProtocolFact{{Feature: "roots/list", Does: "result: 1 roots"}}
	overHTTP := []ProtocolFact{{Feature: "roots/list", Does: "error -32601"}}
	p := Profile{Client: "x", Version: "1", HTTP: &HTTPView{Runs: 1}, Protocol: &Protocol{Runs: 4, Facts: stdio, HTTP: overHTTP}}
	q, ok := p.OverHTTP()
	if f, _ := q.Protocol.Fact("roots/list"); !ok || f.Does != "error -32601" {
		t.Errorf("over HTTP: %+v, want the HTTP row's fact", q.Protocol)
	}
	if f, _ := p.Protocol.Fact("roots/list"); f.Does != "result: 1 roots" {
		t.Errorf("the profile's own facts changed: %+v", p.Protocol)
	}
	// Over 2026-07-28: the dual HTTP row's facts, never the stdio one's.
	p.Protocol.Modern = []ProtocolFact{{Feature: "roots/list", Does: "in input_required: result: 1 roots"}}
	if q, _ := p.OverHTTP(); q.Protocol.Modern != nil {
		t.Errorf("over HTTP, 2026-07-28, not measured there: %+v, want none", q.Protocol.Modern)
	}
	p.Protocol.ModernHTTP = []ProtocolFact{{Feature: "roots/list", Does: "in input_required: no answer"}}
	if q, _ := p.OverHTTP(); len(q.Protocol.Modern) != 1 || q.Protocol.Modern[0].Does != "in input_required: no answer" {
		t.Errorf("over HTTP, 2026-07-28: %+v, want the dual HTTP row's facts", q.Protocol.Modern)
	}
	p.Protocol.HTTP, p.Protocol.ModernHTTP = nil, nil
	if q, _ := p.OverHTTP(); q.Protocol != nil {
		t.Errorf("over HTTP with no HTTP row measured: %+v, want none (not measured)", q.Protocol)
	}
}
