package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/instrlab/instrlab/internal/table"
)

// Names of the contenders that the targets compare.
const (
	NameLab        = "lab"
	NameLabLite    = "lablite" // instrlab-lab: the lab alone in a small binary, held to lab's targets
	NameBare       = "bare"    // bareserver: the lab's three tools
	NameBare1      = "bare1"   // bareserver -tools 1: one tool, the baseline of issue 9
	NameEverything = "everything"
)

// Targets of issue 2, checked when their contenders took part.
const (
	TargetStartupOverBare = time.Millisecond // lab's median startup at most this much above bare's
	TargetEverythingRatio = 20.0             // everything's median startup at least this many times lab's
	TargetPeakRSS         = 40 << 20         // lab's peak resident memory below this
	TargetRate            = 20000            // lab's tools/list per second, log on (issue 9)
)

// A Target is one goal and what was measured against it.
type Target struct {
	Goal     string `json:"goal"`
	Measured string `json:"measured"`
	Met      bool   `json:"met"`
}

// Targets evaluates the goals whose contenders took part: the same goals
// for each of NameLab and NameLabLite that did.
func Targets(results []*Result) []Target {
	by := map[string]*Result{}
	for _, r := range results {
		by[r.Name] = r
	}
	var ts []Target
	for _, name := range []string{NameLab, NameLabLite} {
		if lab := by[name]; lab != nil {
			ts = append(ts, labTargets(lab, by[NameBare], by[NameBare1], by[NameEverything])...)
		}
	}
	return ts
}

// labTargets evaluates the goals of one lab contender; bare, bare1 and
// every are nil when they did not take part.
func labTargets(lab, bare, bare1, every *Result) []Target {
	name := lab.Name
	var ts []Target
	for _, b := range []*Result{bare, bare1} {
		if b != nil {
			d := lab.StartupMedian() - b.StartupMedian()
			ts = append(ts, Target{name + "'s startup within 1 ms of " + b.Name + "'s", fmt.Sprintf("%+.2f ms", ms(d)), d <= TargetStartupOverBare})
		}
	}
	if every != nil && lab.StartupMedian() > 0 {
		x := float64(every.StartupMedian()) / float64(lab.StartupMedian())
		ts = append(ts, Target{name + " starts at least 20× faster than everything", fmt.Sprintf("%.0f×", x), x >= TargetEverythingRatio})
	}
	if bare != nil && len(lab.Throughput) > 0 && len(bare.Throughput) > 0 {
		x := lab.RateMedian() / bare.RateMedian()
		ts = append(ts, Target{name + "'s tools/list rate, log on, at least bare's", fmt.Sprintf("%.2f× (%.0f vs %.0f /s)", x, lab.RateMedian(), bare.RateMedian()), x >= 1})
	}
	if len(lab.Throughput) > 0 {
		x := lab.RateMedian()
		ts = append(ts, Target{name + " answers at least 20,000 tools/list per second, log on", fmt.Sprintf("%.0f /s", x), x >= TargetRate})
		p := lab.PeakRSS()
		ts = append(ts, Target{name + "'s peak memory under 40 MiB", mib(p), p < TargetPeakRSS})
		var logged int
		for _, t := range lab.Throughput {
			if t.Log != nil {
				logged += t.Log.Recv
			}
		}
		n := len(lab.Throughput) * lab.Throughput[0].Requests
		ts = append(ts, Target{name + " logs every request and reply", fmt.Sprintf("%d of %d requests", logged, n), logged == n})
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

// Tables are the results and, when any target applies, the targets, as
// tables for people.
func Tables(results []*Result) []table.Table {
	t := table.Table{Columns: columns("server", "spawn to initialize reply, median (p25–p75)", "CPU per spawn, median", "tools/list per second, median", "peak RSS", "tools/list reply bytes")}
	for _, r := range results {
		q1, q3 := r.StartupQuartiles()
		t.Rows = append(t.Rows, cells(r.Name, fmt.Sprintf("%.1f ms (%.1f–%.1f)", ms(r.StartupMedian()), ms(q1), ms(q3)),
			fmt.Sprintf("%.1f ms", ms(r.CPUMedian())), rate(r), mib(r.PeakRSS()), replyBytes(r)))
	}
	out := []table.Table{t}
	if ts := Targets(results); len(ts) > 0 {
		tt := table.Table{Columns: columns("target", "measured", "met")}
		for _, t := range ts {
			met := table.Cell{Text: "yes"}
			if !t.Met {
				met = table.Cell{Text: "no", Strong: true}
			}
			tt.Rows = append(tt.Rows, append(cells(t.Goal, t.Measured), met))
		}
		out = append(out, tt)
	}
	return out
}

// Raw is one row per contender in raw units, for CSV.
func Raw(results []*Result) table.Table {
	t := table.Table{Columns: columns("server", "startup_median_ms", "startup_p25_ms", "startup_p75_ms", "startup_cpu_median_ms", "spawns", "toolslist_per_s_median", "rounds", "peak_rss_bytes")}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	for _, r := range results {
		q1, q3 := r.StartupQuartiles()
		t.Rows = append(t.Rows, cells(r.Name, f(ms(r.StartupMedian())), f(ms(q1)), f(ms(q3)), f(ms(r.CPUMedian())), strconv.Itoa(len(r.Startups)),
			f(r.RateMedian()), strconv.Itoa(len(r.Throughput)), strconv.FormatInt(r.PeakRSS(), 10)))
	}
	return t
}

// Formats are the -format values instrlab bench prints its results in.
var Formats = table.Formats{"md", "csv", "json"}

// Write prints the results in format, one of Formats; note, if not empty,
// is a paragraph above the Markdown tables (how and where they were
// measured).
func Write(w io.Writer, format, note string, results []*Result) error {
	switch format {
	case "md":
		if note != "" {
			if _, err := fmt.Fprintf(w, "%s\n\n", note); err != nil {
				return err
			}
		}
		return WriteMarkdown(w, results)
	case "csv":
		return WriteCSV(w, results)
	case "json":
		return WriteJSON(w, results)
	}
	return Formats.Check(format)
}

// WriteMarkdown writes the results and targets as Markdown tables.
func WriteMarkdown(w io.Writer, results []*Result) error {
	for i, t := range Tables(results) {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := table.Markdown(w, t); err != nil {
			return err
		}
	}
	return nil
}

// WriteCSV writes one row per contender.
func WriteCSV(w io.Writer, results []*Result) error { return table.CSV(w, Raw(results)) }

func columns(names ...string) []table.Column {
	out := make([]table.Column, len(names))
	for i, n := range names {
		out[i] = table.Column{Name: n}
	}
	return out
}

func cells(texts ...string) []table.Cell {
	out := make([]table.Cell, len(texts))
	for i, t := range texts {
		out[i] = table.Cell{Text: t}
	}
	return out
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
