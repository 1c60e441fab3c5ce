package clients

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/pins"
)

func TestNew(t *testing.T) {
	c, err := New("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Spec().String(); s != "claude-code@"+pins.Version("claude-code") {
		t.Errorf("default spec %q", s)
	}
	if _, err := New("no-such-client@1"); err == nil || !strings.Contains(err.Error(), "known: claude-code") {
		t.Errorf("New(unknown) = %v", err)
	}
}

// TestEveryClientIsPinned: the pins table and the known clients name the
// same clients, and New with no version runs each client's pin.
func TestEveryClientIsPinned(t *testing.T) {
	all := pins.All()
	if diff := cmp.Diff(Names(), slices.Sorted(maps.Keys(all))); diff != "" {
		t.Errorf("pinned clients mismatch (-known +pinned):\n%s", diff)
	}
	for _, n := range Names() {
		c, err := New(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Spec().Version; got != all[n] {
			t.Errorf("%s runs %s by default, pinned %s", n, got, all[n])
		}
	}
}
