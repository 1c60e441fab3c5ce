package profiles

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPickParsesWhatItNeeds: Pick, which parses only the named clients'
// profiles, gives what Select over every built-in profile gives, errors
// included.
func TestPickParsesWhatItNeeds(t *testing.T) {
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

// TestBuiltinFor: the files a list may resolve to.
func TestBuiltinFor(t *testing.T) {
	files := []string{"data/a@1.json", "data/a@2.json", "data/ab@1.json", "data/b@1.json"}
	for _, tt := range []struct {
		names []string
		want  []string
	}{
		{[]string{"a"}, []string{"data/a@1.json", "data/a@2.json"}},
		{[]string{"a@2", "b"}, []string{"data/a@1.json", "data/a@2.json", "data/b@1.json"}},
		{[]string{"ab", "ab@latest"}, []string{"data/ab@1.json"}},
		{[]string{"x.json"}, nil},
		{[]string{"a", "c"}, files},
		{[]string{""}, files},
	} {
		if diff := cmp.Diff(tt.want, builtinFor(files, tt.names)); diff != "" {
			t.Errorf("builtinFor(%q) mismatch (-want +got):\n%s", tt.names, diff)
		}
	}
}

// TestPickLater: a list that names profiles is read at once, a wrong name
// an error before anything starts; the default list is read meanwhile
// and gives what Pick gives.
func TestPickLater(t *testing.T) {
	if _, err := PickLater("no-such-client"); err == nil {
		t.Error("PickLater of a client without a profile: no error")
	}
	pick, err := PickLater("")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pick()
	want, werr := Pick("")
	if err != nil || werr != nil || len(got) != len(want) || len(got) == 0 {
		t.Errorf("PickLater(\"\") gives %d profiles (%v), Pick %d (%v)", len(got), err, len(want), werr)
	}
}
