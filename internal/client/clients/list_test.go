package clients

import "testing"

// TestNewList: All expands to every client that pins a version, in name
// order, between the clients named around it; an unknown name is an error.
func TestNewList(t *testing.T) {
	cs, err := NewList([]string{"codex", All, "claude-code@2.1.285"})
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
	if _, err := NewList([]string{"claude-code", "nosuch"}); err == nil {
		t.Error("NewList accepted an unknown client")
	}
}
