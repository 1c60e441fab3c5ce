package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewClients(t *testing.T) {
	tests := []struct {
		specs []string
		want  []string
	}{
		{[]string{"claude-code"}, []string{"claude-code@2.1.328"}},
		{[]string{"claude-code@2.1.285", "claude-code"}, []string{"claude-code@2.1.285", "claude-code@2.1.328"}},
		{[]string{"codex"}, []string{"codex@0.169.0"}},
		{[]string{"all"}, []string{"claude-code@2.1.328", "cline@3.0.65", "codex@0.169.0", "continue@1.5.47", "copilot@1.0.102", "droid@0.225.2", "gemini@0.61.0", "kilo@7.7.7", "opencode@1.18.33", "qwen@0.24.4"}},
	}
	for _, tt := range tests {
		cs, err := newClients(tt.specs)
		if err != nil {
			t.Fatalf("newClients(%q): %v", tt.specs, err)
		}
		var got []string
		for _, c := range cs {
			got = append(got, c.Spec().String())
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("newClients(%q) mismatch (-want +got):\n%s", tt.specs, diff)
		}
	}
	if _, err := newClients([]string{"nosuch"}); err == nil {
		t.Error("newClients accepted an unknown client")
	} else if _, ok := err.(usageError); !ok {
		t.Errorf("unknown client: %T %v, want a usage error", err, err)
	}
}
