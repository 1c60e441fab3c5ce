package profiles

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
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
		got, gotErr := Pick(t.Context(), list)
		var names []string
		if list != "" {
			names = strings.Split(list, ",")
		}
		want, wantErr := Select(t.Context(), builtin, names)
		if wantErr != nil {
			wantErr = fmt.Errorf("-profile: %w", wantErr)
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("Pick(t.Context(), %q): error %v, want %v", list, gotErr, wantErr)
			continue
		}
		if diff := cmp.Diff(Expand(want), got); wantErr == nil && diff != "" {
			t.Errorf("Pick(t.Context(), %q) mismatch (-want +got):\n%s", list, diff)
		}
	}
}

// TestWithModel: -model keeps each client version's view of that model
// (Claude Code 2.1.332 and the Claude Agent SDK measured with Haiku 5.5
// in their arm model-haiku) and
// nothing else; a model no profile was measured with is an error naming
// those that were.
func TestWithModel(t *testing.T) {
	views, err := Pick(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := WithModel(views, "claude-haiku-5-5")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range got {
		if v.Model != "claude-haiku-5-5" {
			t.Errorf("WithModel(claude-haiku-5-5) kept %s's view of model %s", v.ID(), v.Model)
		}
		ids = append(ids, v.ID())
	}
	if !slices.Equal(ids, []string{"claude-agent-sdk@0.3.337", "claude-code@2.1.332"}) {
		t.Errorf("WithModel(claude-haiku-5-5) = %v; want the views of that model of the Claude Agent SDK 0.3.337 and Claude Code 2.1.332", ids)
	}
	if all, _ := WithModel(views, ""); len(all) != len(views) {
		t.Errorf("WithModel(\"\") kept %d of %d views", len(all), len(views))
	}
	if _, err := WithModel(views, "no-such-model"); err == nil || !strings.Contains(err.Error(), `no profile was measured with model "no-such-model"`) || !strings.Contains(err.Error(), "claude-opus-5-5") {
		t.Errorf("WithModel(no-such-model): %v, want an error naming the models measured", err)
	}
}

// TestPickLater: a named list or a model is read at once, a wrong one an
// error before the function is returned; the default gives Pick's views,
// the same to every call, from any goroutine.
func TestPickLater(t *testing.T) {
	for _, c := range []struct{ list, model, err string }{
		{"nosuch", "", "nosuch"},
		{"", "no-such-model", "no-such-model"},
		{"claude-code", "no-such-model", "no-such-model"},
	} {
		if _, err := PickLater(t.Context(), c.list, c.model); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("PickLater(%q, %q): %v, want an error naming %s at once", c.list, c.model, err, c.err)
		}
	}
	want, err := Pick(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	pick, err := PickLater(t.Context(), "", "")
	if err != nil {
		t.Fatal(err)
	}
	got := make([][]Profile, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], _ = pick() })
	}
	wg.Wait()
	for i, g := range got {
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("PickLater's views, call %d, differ from Pick's (-want +got):\n%s", i, diff)
		}
	}
	named, err := PickLater(t.Context(), "claude-code", "claude-haiku-5-5")
	if err != nil {
		t.Fatal(err)
	}
	if vs, err := named(); err != nil || len(vs) != 1 || vs[0].ID() != "claude-code@2.1.332" {
		t.Errorf("PickLater(claude-code, claude-haiku-5-5) gave %d views, %v; want Claude Code 2.1.332's", len(vs), err)
	}
}
