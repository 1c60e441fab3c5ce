package report

import (
	"strings"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// outsideText lists the names a client asked the resolver of its
// loopback-only network namespace, or says the run was not isolated.
func outsideText(r *analyze.Result) string {
	switch {
	case !r.Netns:
		return "not isolated"
	case len(r.OutsideNames) == 0:
		return "none"
	}
	return strings.Join(r.OutsideNames, ", ")
}
