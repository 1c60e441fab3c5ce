package client

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in      string
		want    Spec
		wantErr bool
	}{
		{"claude-code@2.1.328", Spec{"claude-code", "2.1.328"}, false},
		{"claude-code", Spec{"claude-code", ""}, false},
		{"codex@0.169.0-alpha.1", Spec{"codex", "0.169.0-alpha.1"}, false},
		{"@2.1.328", Spec{}, true},
		{"claude-code@", Spec{}, true},
		{"claude code", Spec{}, true},
	}
	for _, tt := range tests {
		got, err := ParseSpec(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseSpec(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParseSpec(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}
