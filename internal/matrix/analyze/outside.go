package analyze

import (
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/netjail"
)

// outsideNames reads the names a jailed client asked the resolver, in the
// order first asked: those it answered "no such host" (outside) and those
// it resolved to the fake (the direct arm's vendor hosts), with the log's
// warnings.
func outsideNames(dir string) (outside, vendor []string, warnings []string) {
	lookups, warnings, err := netjail.ReadLookups(evidence.RunDir(dir).DNSLog())
	if err != nil {
		return nil, nil, append(warnings, err.Error())
	}
	return append([]string{}, netjail.Outside(lookups)...), netjail.Resolved(lookups), warnings
}
