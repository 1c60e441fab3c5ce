package analyze

import (
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/netjail"
)

// outsideNames reads the names a jailed client asked the resolver, in the
// order first asked, with the log's warnings.
func outsideNames(dir string) ([]string, []string) {
	lookups, warnings, err := netjail.ReadLookups(evidence.RunDir(dir).DNSLog())
	if err != nil {
		return nil, append(warnings, err.Error())
	}
	return append([]string{}, netjail.Names(lookups)...), warnings
}
