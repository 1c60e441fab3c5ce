package budget

import (
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
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
