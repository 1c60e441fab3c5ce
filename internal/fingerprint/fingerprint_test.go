package fingerprint

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Text
	}{
		{"", Text{0, "e3b0c44298fc"}},
		{"abc", Text{3, "ba7816bf8f01"}},
		{"日本語", Text{3, "77710aedc74e"}}, // characters, not bytes
	} {
		if diff := cmp.Diff(tc.want, Of(tc.in)); diff != "" {
			t.Errorf("Of(%q) mismatch (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestToolsTellsListsApart: a list differs from another with the same
// texts split otherwise, reordered, or one description changed.
func TestToolsTellsListsApart(t *testing.T) {
	base := []Tool{{"search", "Find things."}, {"fetch", "Get one."}}
	others := [][]Tool{
		{{"fetch", "Get one."}, {"search", "Find things."}},
		{{"search", "Find things"}, {"fetch", "Get one."}},
		{{"searc", "hFind things."}, {"fetch", "Get one."}},
		{{"search", "Find things."}},
		nil,
	}
	b := ToolsOf(base)
	if b.Count != 2 || b != ToolsOf([]Tool{{"search", "Find things."}, {"fetch", "Get one."}}) {
		t.Fatalf("ToolsOf is not a function of the list: %+v", b)
	}
	for _, o := range others {
		if ToolsOf(o).SHA256 == b.SHA256 {
			t.Errorf("ToolsOf(%v) = ToolsOf(%v): %s", o, base, b.SHA256)
		}
	}
}

func TestEnvNames(t *testing.T) {
	got := EnvNames([]string{"PATH=/bin", "HOME=/h", "PATH=/usr/bin", "=C:", "BROKEN"}, map[string]string{"API_KEY": "sk-secret", "HOME": "/x"})
	if diff := cmp.Diff([]string{"API_KEY", "HOME", "PATH"}, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func ExampleOf() {
	fmt.Println(Of("Use search before fetch."))
	fmt.Println(ToolsOf([]Tool{{"search", "Find things."}}))
	// Output:
	// 24 characters, sha256 62546942689f
	// 1 tool, sha256 b07ef6c6a3c7
}
