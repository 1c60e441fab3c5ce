package bench

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// A Config is one benchmark run.
type Config struct {
	Contenders []Contender
	Spawns     int      // startup measurements per contender
	Rounds     int      // throughput measurements per contender
	Requests   int      // tools/list requests per throughput measurement
	Throughput []string // names of the contenders whose throughput to measure; nil means all
	// EachWrite writes each pipelined request with a write of its own, as a
	// client's SDK does, instead of all of them in one write.
	EachWrite bool
	Dir       string // for message logs
	Progress  io.Writer
}

// A Result is what one contender measured.
type Result struct {
	Name       string       `json:"name"`
	Argv       []string     `json:"argv"`
	Startups   []Startup    `json:"startups"`
	Throughput []Throughput `json:"throughput"` // empty when not measured
}

// Run measures every contender, interleaved: first one spawn of each to warm
// the page cache (not counted), then Spawns rounds of one startup each, then
// Rounds rounds of one throughput run each.
func Run(cfg Config) ([]*Result, error) {
	if cfg.Progress == nil {
		cfg.Progress = io.Discard
	}
	results := make([]*Result, len(cfg.Contenders))
	for i, c := range cfg.Contenders {
		results[i] = &Result{Name: c.Name, Argv: c.Argv}
		if _, err := MeasureStartup(c, cfg.Dir); err != nil {
			return nil, fmt.Errorf("warming up: %w", err)
		}
	}
	fmt.Fprintf(cfg.Progress, "bench: %d spawns of %d servers\n", cfg.Spawns, len(cfg.Contenders))
	for round := range cfg.Spawns {
		for i, c := range cfg.Contenders {
			s, err := MeasureStartup(c, cfg.Dir)
			if err != nil {
				return nil, fmt.Errorf("startup %d: %w", round+1, err)
			}
			results[i].Startups = append(results[i].Startups, s)
		}
	}
	for round := range cfg.Rounds {
		fmt.Fprintf(cfg.Progress, "bench: throughput round %d of %d\n", round+1, cfg.Rounds)
		for i, c := range cfg.Contenders {
			if cfg.Throughput != nil && !slices.Contains(cfg.Throughput, c.Name) {
				continue
			}
			t, err := MeasureThroughput(c, cfg.Requests, cfg.EachWrite, cfg.Dir)
			if err != nil {
				return nil, fmt.Errorf("throughput %d: %w", round+1, err)
			}
			results[i].Throughput = append(results[i].Throughput, t)
		}
	}
	return results, nil
}

// StartupMedian is the median time to the initialize reply.
func (r *Result) StartupMedian() time.Duration {
	return median(r.Startups, func(s Startup) time.Duration { return s.Elapsed })
}

// StartupQuartiles are the 25th and 75th percentiles of the startup times.
func (r *Result) StartupQuartiles() (q1, q3 time.Duration) {
	d := sorted(r.Startups, func(s Startup) time.Duration { return s.Elapsed })
	if len(d) == 0 {
		return 0, 0
	}
	return d[len(d)/4], d[(3*len(d))/4]
}

// CPUMedian is the median CPU time of a spawn, exit included: less
// sensitive than the elapsed time to what else the machine runs.
func (r *Result) CPUMedian() time.Duration {
	return median(r.Startups, func(s Startup) time.Duration { return s.CPU })
}

// RateMedian is the median of the throughput runs' rates, 0 if none ran.
func (r *Result) RateMedian() float64 {
	return median(r.Throughput, Throughput.Rate)
}

// PeakRSS is the largest peak resident memory of any throughput run, or of
// any spawn when no throughput run was made.
func (r *Result) PeakRSS() int64 {
	var peak int64
	for _, t := range r.Throughput {
		peak = max(peak, t.MaxRSS)
	}
	if len(r.Throughput) == 0 {
		for _, s := range r.Startups {
			peak = max(peak, s.MaxRSS)
		}
	}
	return peak
}

func sorted[T any, V int64 | float64 | time.Duration](xs []T, f func(T) V) []V {
	vs := make([]V, len(xs))
	for i, x := range xs {
		vs[i] = f(x)
	}
	slices.Sort(vs)
	return vs
}

// median is the middle value, or the mean of the two middle values.
func median[T any, V int64 | float64 | time.Duration](xs []T, f func(T) V) V {
	vs := sorted(xs, f)
	n := len(vs)
	switch {
	case n == 0:
		return 0
	case n%2 == 1:
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}
