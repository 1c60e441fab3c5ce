package clients

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
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
	if _, err := New("no-such-client@1"); err == nil || !strings.Contains(err.Error(), "known: adk, ai-sdk, claude-agent-sdk, claude-code") {
		t.Errorf("New(unknown) = %v", err)
	}
}

// TestEveryClientIsPinned: the pins table and the known clients name the
// same clients, New with no version runs each client's pin, and each names
// the npm package whose releases the pin follows.
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
		// The pins' proposal and the sweep list its versions on npm.
		if p, ok := c.(client.Published); !ok || p.Package() == "" {
			t.Errorf("%s names no npm package (client.Published): its newer releases cannot be listed", n)
		}
	}
}

// TestInfo: every adapter's Info names it as the registry does, says how
// its makers write its name, and is what its clients are made of: the
// client New makes has the Info's name, API and pinned version.
func TestInfo(t *testing.T) {
	for name, a := range known {
		if a.info.Name != name || a.info.Display == "" || a.info.API == "" || a.info.Default == "" {
			t.Errorf("%s: info %+v, want its name, a display name, an API and a pin", name, a.info)
			continue
		}
		c := a.new("")
		if c.Spec() != a.info.At("").Spec() || c.API() != a.info.API {
			t.Errorf("%s: New(\"\") is %s speaking %s, its info says %s speaking %s", name, c.Spec(), c.API(), a.info.At("").Spec(), a.info.API)
		}
		if got := Display(name); got != a.info.Display {
			t.Errorf("Display(%q) = %q, want %q", name, got, a.info.Display)
		}
	}
	if got := Display("some-client"); got != "Some Client" {
		t.Errorf("Display of a client without a display name = %q, want \"Some Client\"", got)
	}
}
