package clients

import (
	"context"
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNewList: All expands to every client that pins a version, in name
// order, between the clients named around it; an unknown name is an error.
func TestNewList(t *testing.T) {
	cs, err := NewList(context.Background(), []string{"codex", All, "claude-code@2.1.285"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var pinned []string
	for _, n := range Names() {
		if c, err := New(n); err == nil && c.Spec().Version != "" {
			pinned = append(pinned, c.Spec().String())
		}
	}
	if len(pinned) < 2 {
		t.Fatalf("only %d clients pin a version", len(pinned))
	}
	if len(cs) != len(pinned)+2 || cs[0].Spec().Name != "codex" || cs[len(cs)-1].Spec().String() != "claude-code@2.1.285" {
		t.Fatalf("NewList gave %d clients, want codex, the %d pinned ones, claude-code@2.1.285", len(cs), len(pinned))
	}
	for i, want := range pinned {
		if got := cs[i+1].Spec().String(); got != want {
			t.Errorf("all[%d] = %s, want %s", i, got, want)
		}
	}
	if _, err := NewList(context.Background(), []string{"claude-code", "nosuch"}, io.Discard); err == nil {
		t.Error("NewList accepted an unknown client")
	}
}

// TestNewListPinned: the clients -client names, each at the version its
// adapter pins (internal/client/pins).
func TestNewListPinned(t *testing.T) {
	tests := []struct {
		specs []string
		want  []string
	}{
		{[]string{"claude-code"}, []string{"claude-code@2.1.332"}},
		{[]string{"claude-code@2.1.285", "claude-code"}, []string{"claude-code@2.1.285", "claude-code@2.1.332"}},
		{[]string{"codex"}, []string{"codex@0.171.0"}},
		{[]string{"codex@pinned"}, []string{"codex@0.171.0"}},
		{[]string{"all"}, []string{"adk@2.0.0", "ai-sdk@7.0.185", "claude-agent-sdk@0.3.337", "claude-code@2.1.332", "cline@3.0.65", "codex@0.171.0", "continue@1.5.47", "copilot@1.0.102", "droid@0.225.2", "gemini@0.61.0", "grok@0.0.34", "kilo@7.7.9", "langchain@1.1.4", "mastra@2.0.0", "mcp-use@1.34.6", "openai-agents@0.20.0", "opencode@1.18.33", "qwen@0.24.4"}},
	}
	for _, tt := range tests {
		cs, err := NewList(context.Background(), tt.specs, io.Discard)
		if err != nil {
			t.Fatalf("NewList(%q): %v", tt.specs, err)
		}
		var got []string
		for _, c := range cs {
			got = append(got, c.Spec().String())
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("NewList(%q) mismatch (-want +got):\n%s", tt.specs, diff)
		}
	}
}
