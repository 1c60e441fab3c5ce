package atlas

import "github.com/instrlab/instrlab/internal/version"

// NewestRun returns, per client, the newest version of its timeline that
// ran (a point with properties, on either attempt): the newest release the
// atlas has evidence of, which the pins follow (internal/client/pins). A
// client none of whose probed versions ran is left out.
func (a *Atlas) NewestRun() map[string]string {
	out := map[string]string{}
	for _, t := range a.Timelines {
		for _, p := range t.Points {
			if !p.Ran() || !version.Valid(p.Version) {
				continue
			}
			if v, ok := out[t.Client]; !ok || version.Compare(p.Version, v) > 0 {
				out[t.Client] = p.Version
			}
		}
	}
	return out
}
