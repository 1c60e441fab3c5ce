package report

import (
	"testing"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

func TestServersText(t *testing.T) {
	sys := []analyze.Placement{{Kind: fakeapi.KindSystem}}
	r := &analyze.Result{Servers: []analyze.ServerResult{
		{Name: "beta", Sent: 1000, Kept: 1000, Order: 2, Placements: sys},
		{Name: "alpha", Sent: 2000, Kept: 300, Order: 1, Placements: sys},
		{Name: "gamma", Sent: 1000, Placements: []analyze.Placement{}},
	}}
	const want = "servers in the request's order: 1. alpha 300 of 2,000 (system), 2. beta 1,000 of 1,000 (system); not in it: gamma"
	if got := placementText(r); got != want {
		t.Errorf("placement cell\n got %q\nwant %q", got, want)
	}
	r.Servers = r.Servers[2:]
	if got, want := placementText(r), "no server's text in the request; not in it: gamma"; got != want {
		t.Errorf("placement cell\n got %q\nwant %q", got, want)
	}
}
