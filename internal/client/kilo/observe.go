package kilo

import (
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/opencode"
)

// Observe implements client.Client: Kilo prints opencode's JSON events and
// log lines, so opencode.Observe reads them.
func (k *Kilo) Observe(e client.Evidence) client.Observation {
	return opencode.Observe(e.Dir, e.Primary())
}
