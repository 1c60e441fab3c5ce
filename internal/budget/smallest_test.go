package budget

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
)

// TestSmallestWithoutProfiles: clients with no wait budget or timeout in
// their profiles hold the load to DefaultSmallest, and say so.
func TestSmallestWithoutProfiles(t *testing.T) {
	d, why := Smallest([]client.Client{&fakeclient.Client{Version: "1"}})
	if d != DefaultSmallest || !strings.Contains(why, "no wait budget measured") {
		t.Errorf("Smallest = %v, %q", d, why)
	}
	var said strings.Builder
	g := Gate([]client.Client{&fakeclient.Client{Version: "1"}}, 2, 0, &said)
	if g.Max != 6 || g.Limit != DefaultSmallest/4 || !strings.Contains(said.String(), "a server must start in under 250ms") {
		t.Errorf("gate max %d limit %v; said %q", g.Max, g.Limit, said.String())
	}
}

// TestSmallestLeavesOutAClientThatDoesNotWait: Droid 0.225.2 waits 13-111
// ms, less than any server takes to start; held to a quarter of it (3 ms)
// every run of a matrix with Droid in it went one at a time. The gate
// holds the runs to the next smallest budget (Codex 0.171.0's, about 1 s,
// from the built-in profiles) and says Droid's runs race anyway.
func TestSmallestLeavesOutAClientThatDoesNotWait(t *testing.T) {
	cs, err := clients.NewList(context.Background(), []string{"droid@0.225.2", "codex@0.171.0"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	d, why := Smallest(cs)
	if d < NoWait || !strings.Contains(why, "of codex@0.171.0") || !strings.Contains(why, "not held to: droid@0.225.2 waits 13ms") {
		t.Errorf("Smallest = %v, %q; want Codex's budget, Droid's left out and said", d, why)
	}
	d, why = Smallest(cs[:1])
	if d != DefaultSmallest || !strings.Contains(why, "droid@0.225.2") {
		t.Errorf("Smallest of Droid alone = %v, %q; want the default, Droid said", d, why)
	}
}
