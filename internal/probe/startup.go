package probe

import (
	"slices"
	"time"
)

// Startup is the time from spawn to the first reply, per era, over the
// repeated runs (and, in the legacy era, the extra samples of a stdio
// server: Options.Samples), with the machine's load when the probe
// started: a start-up measured on a loaded machine is slower.
type Startup struct {
	Legacy Stats `json:"legacy"`
	Modern Stats `json:"modern"`
	// Load is the one-minute load average when the probe started; 0
	// where the system does not tell it (load.Now: Linux only).
	Load float64 `json:"load,omitempty"`
	// CPUs is the number of CPUs check could run on (runtime.NumCPU).
	CPUs int `json:"cpus,omitempty"`
}

// Stats summarise samples of one duration.
type Stats struct {
	N      int    `json:"n"`
	Median Millis `json:"median_ms"`
	Max    Millis `json:"max_ms"`
}

// statsOf summarises the samples; zero samples give zero Stats.
func statsOf(samples []time.Duration) Stats {
	if len(samples) == 0 {
		return Stats{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	median := s[len(s)/2]
	if len(s)%2 == 0 {
		median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Stats{N: len(s), Median: Millis(median), Max: Millis(s[len(s)-1])}
}

// Worst returns the larger of the two eras' maxima.
func (s Startup) Worst() time.Duration {
	return max(s.Legacy.Max.D(), s.Modern.Max.D())
}
