package testutil

import (
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
)

// TwoServers are two lab servers for the config writers' tests, named out
// of alphabetical order (a writer that sorts its names, as a Go map does,
// puts them the other way round), each started with its own -seed.
func TwoServers() []client.Server {
	return []client.Server{
		{Name: "zeta", Command: "/bin/instrlab", Args: []string{"serve", "lab", "-seed", "zeta-seed"}},
		{Name: "alpha", Command: "/bin/instrlab", Args: []string{"serve", "lab", "-seed", "alpha-seed"}, Env: map[string]string{"A": "1"}},
	}
}

// ServersInOrder fails t unless config names every server of TwoServers
// and carries its own -seed, in TwoServers' order.
func ServersInOrder(t *testing.T, config string) {
	t.Helper()
	at := -1
	for _, s := range TwoServers() {
		name, seed := strings.Index(config, s.Name), strings.Index(config, s.Args[len(s.Args)-1])
		switch {
		case name < 0 || seed < 0:
			t.Errorf("config lacks server %s (name at %d, seed at %d):\n%s", s.Name, name, seed, config)
			return
		case name < at || seed < at:
			t.Errorf("server %s comes before the one listed ahead of it:\n%s", s.Name, config)
			return
		}
		at = max(name, seed)
	}
}
