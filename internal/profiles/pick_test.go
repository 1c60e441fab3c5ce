package profiles

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPick: Pick gives what Select over every built-in profile gives,
// expanded, errors included.
func TestPick(t *testing.T) {
	builtin, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	file, err := filepath.Abs("data/codex@0.171.0.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, list := range []string{
		"", "claude-code", "claude-code@latest", "claude-code,codex@0.169.0", "claude-code@2.1.300",
		"claude-code@2.1.293", "claude-code@9.9.9", "nosuch", "claude-code,nosuch@1", "claude", "qwen," + file, file,
		"claude-code,", "kilo@7.7.8,claude-code@2.1.84",
	} {
		got, gotErr := Pick(list)
		var names []string
		if list != "" {
			names = strings.Split(list, ",")
		}
		want, wantErr := Select(builtin, names)
		if wantErr != nil {
			wantErr = fmt.Errorf("-profile: %w", wantErr)
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("Pick(%q): error %v, want %v", list, gotErr, wantErr)
			continue
		}
		if diff := cmp.Diff(Expand(want), got); wantErr == nil && diff != "" {
			t.Errorf("Pick(%q) mismatch (-want +got):\n%s", list, diff)
		}
	}
}
