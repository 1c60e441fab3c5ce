package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Names of the contenders that the targets compare.
const (
	NameLab        = "lab"
	NameBare       = "bare"
	NameEverything = "everything"
)

// Targets of issue 2, checked when their contenders took part.
const (
	TargetStartupOverBare = time.Millisecond // lab's median startup at most this much above bare's
	TargetEverythingRatio = 20.0             // everything's median startup at least this many times lab's
	TargetPeakRSS         = 40 << 20         // lab's peak resident memory below this
)

// A Target is one goal and what was measured against it.
type Target struct {
	Goal     string `json:"goal"`
	Measured string `json:"measured"`
	Met      bool   `json:"met"`
}

// Targets evaluates the goals whose contenders took part.
func Targets(results []*Result) []Target {
	by := map[string]*Result{}
	for _, r := range results {
		by[r.Name] = r
	}
	lab, bare, every := by[NameLab], by[NameBare], by[NameEverything]
	var ts []Target
	if lab != nil && bare != nil {
		d := lab.StartupMedian() - bare.StartupMedian()
		ts = append(ts, Target{"lab's startup within 1 ms of bare's", fmt.Sprintf("%+.2f ms", ms(d)), d <= TargetStartupOverBare})
	}
	if lab != nil && every != nil && lab.StartupMedian() > 0 {
		x := float64(every.StartupMedian()) / float64(lab.StartupMedian())
		ts = append(ts, Target{"lab starts at least 20× faster than everything", fmt.Sprintf("%.0f×", x), x >= TargetEverythingRatio})
	}
	if lab != nil && bare != nil && len(lab.Throughput) > 0 && len(bare.Throughput) > 0 {
		x := lab.RateMedian() / bare.RateMedian()
		ts = append(ts, Target{"lab's tools/list rate, log on, at least bare's", fmt.Sprintf("%.2f× (%.0f vs %.0f /s)", x, lab.RateMedian(), bare.RateMedian()), x >= 1})
	}
	if lab != nil && len(lab.Throughput) > 0 {
		p := lab.PeakRSS()
		ts = append(ts, Target{"lab's peak memory under 40 MiB", mib(p), p < TargetPeakRSS})
		var logged int
		for _, t := range lab.Throughput {
			if t.Log != nil {
				logged += t.Log.Recv
			}
		}
		n := len(lab.Throughput) * lab.Throughput[0].Requests
		ts = append(ts, Target{"lab logs every request and reply", fmt.Sprintf("%d of %d requests", logged, n), logged == n})
	}
	return ts
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func rate(r *Result) string {
	if len(r.Throughput) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", r.RateMedian())
}

func replyBytes(r *Result) string {
	if len(r.Throughput) == 0 {
		return "-"
	}
	return strconv.Itoa(r.Throughput[0].ReplyBytes)
}

// WriteMarkdown writes the results and targets as Markdown tables.
func WriteMarkdown(w io.Writer, results []*Result) error {
	fmt.Fprintf(w, "| server | spawn to initialize reply, median (p25–p75) | CPU per spawn, median | tools/list per second, median | peak RSS | tools/list reply bytes |\n")
	fmt.Fprintf(w, "| --- | --- | --- | --- | --- | --- |\n")
	for _, r := range results {
		q1, q3 := r.StartupQuartiles()
		fmt.Fprintf(w, "| %s | %.1f ms (%.1f–%.1f) | %.1f ms | %s | %s | %s |\n",
			r.Name, ms(r.StartupMedian()), ms(q1), ms(q3), ms(r.CPUMedian()), rate(r), mib(r.PeakRSS()), replyBytes(r))
	}
	if ts := Targets(results); len(ts) > 0 {
		fmt.Fprintf(w, "\n| target | measured | met |\n| --- | --- | --- |\n")
		for _, t := range ts {
			met := "yes"
			if !t.Met {
				met = "**no**"
			}
			fmt.Fprintf(w, "| %s | %s | %s |\n", t.Goal, t.Measured, met)
		}
	}
	return nil
}

// WriteCSV writes one row per contender.
func WriteCSV(w io.Writer, results []*Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"server", "startup_median_ms", "startup_p25_ms", "startup_p75_ms", "startup_cpu_median_ms", "spawns", "toolslist_per_s_median", "rounds", "peak_rss_bytes"})
	for _, r := range results {
		q1, q3 := r.StartupQuartiles()
		f := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
		cw.Write([]string{r.Name, f(ms(r.StartupMedian())), f(ms(q1)), f(ms(q3)), f(ms(r.CPUMedian())), strconv.Itoa(len(r.Startups)),
			f(r.RateMedian()), strconv.Itoa(len(r.Throughput)), strconv.FormatInt(r.PeakRSS(), 10)})
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes every sample, the medians and the targets.
func WriteJSON(w io.Writer, results []*Result) error {
	type summary struct {
		*Result
		StartupMedianNs int64   `json:"startup_median_ns"`
		RateMedian      float64 `json:"toolslist_per_s_median"`
		PeakRSS         int64   `json:"peak_rss_bytes"`
	}
	out := struct {
		Results []summary `json:"results"`
		Targets []Target  `json:"targets"`
	}{Targets: Targets(results)}
	for _, r := range results {
		out.Results = append(out.Results, summary{r, int64(r.StartupMedian()), r.RateMedian(), r.PeakRSS()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
