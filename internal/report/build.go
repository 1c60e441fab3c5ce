package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/tokens"
)

// Evidence files of a run that columns link to, relative to its directory.
var (
	fileRecord   = evidence.RecordFile
	fileLabLog   = evidence.LabLogFile
	fileRequests = evidence.RequestsFile
	fileClient   = evidence.StdoutFile
	// The client's own files other than its output, by what they hold:
	// resolved per run from the files its Observation read.
	fileDebug      = "client:debug"
	fileTranscript = "client:transcript"
)

// A column is one per-client column: how its cell is made from the
// results of one row on one client (its repeats), the evidence file it
// comes from, and what instrlab diff compares of it. This list is the one
// place to add a column: the tables, the page and diff all read it.
type column struct {
	name string
	cell func(s *summary) string
	// file is the evidence file the cell is read from, linked from the
	// cell; when it is missing the cell says so instead of a value.
	file string
	// fact names the column in instrlab diff; "" when diff ignores it
	// (timings, free text, what follows from another fact).
	fact string
	// key is the value diff compares, when not the cell itself (the part
	// of a cell that is not timing noise).
	key func(s *summary) string
	// num is the number diff compares within a tolerance, when set.
	num func(s *summary) (float64, bool)
}

// The facts diff relates: kept and tokens follow a changed cap.
const (
	factCap    = "cap"
	factKept   = "kept"
	factTokens = "tokens"
)

var columns = []column{
	{name: "runs", cell: (*summary).runs, file: fileRecord, fact: "runs", key: (*summary).runsKey},
	{name: "server status", file: fileClient, cell: func(s *summary) string {
		return s.join(func(r *analyze.Result) string { return r.Observation.ServerStatus })
	}},
	{name: "server saw", cell: func(s *summary) string { return s.join(handshakeText) }, file: fileLabLog, fact: "probe"},
	{name: "probe → initialize", cell: (*summary).probeDelay, file: fileLabLog},
	{name: "server ready", cell: (*summary).ready, file: fileLabLog, fact: "waiting", key: (*summary).waiting},
	{name: "timing", cell: (*summary).timing, file: fileLabLog},
	{name: "placement (first request)", cell: func(s *summary) string { return s.join(placementText) }, file: fileRequests, fact: "placement"},
	{name: "chars kept", cell: func(s *summary) string { return s.join(keptText) }, file: fileRequests, fact: factKept},
	{name: "implied cap", cell: func(s *summary) string {
		return s.join(func(r *analyze.Result) string { return capText(r, s.unit) })
	}, file: fileRequests, fact: factCap},
	{name: "transcript says", cell: func(s *summary) string { return s.join(transcriptText) }, file: fileTranscript},
	{name: "codewords from", cell: func(s *summary) string { return s.join(eraText) }, file: fileRequests},
	{name: "reader's answer", cell: func(s *summary) string { return s.join(func(r *analyze.Result) string { return r.Reader.Line() }) }, file: fileRequests},
	{name: "client's answer", cell: func(s *summary) string { return s.join(answerText) }, file: fileClient},
	{name: "first request chars / tokens*", cell: func(s *summary) string { return s.join(sizeText) }, file: fileRequests},
	{name: "tools sent", cell: func(s *summary) string { return s.join(toolsText) }, file: fileRequests},
	{name: "Δ tokens* vs baseline", cell: func(s *summary) string { return s.delta }, file: fileRequests, fact: factTokens, num: func(s *summary) (float64, bool) { return s.deltaN, s.deltaOK }},
	{name: "later requests", cell: func(s *summary) string { return s.join(laterText) }, file: fileRequests},
	{name: "prefix stable", cell: func(s *summary) string {
		return s.join(func(r *analyze.Result) string { return r.Session.Line() })
	}, file: fileRequests, fact: "prefix", key: func(s *summary) string {
		return s.join(func(r *analyze.Result) string { return r.Session.Verdict() })
	}},
	{name: "debug log", cell: func(s *summary) string { return s.join(debugText) }, file: fileDebug},
	{name: "outside names asked", cell: func(s *summary) string { return s.join(outsideText) }},
	{name: "repeats identical", cell: (*summary).same, file: fileRequests},
	{name: "arm", cell: func(s *summary) string { return s.join(armText) }, file: fileRecord, fact: "arm"},
}

// order lists the rows in matrix order, then any rows found only in the
// results (a matrix changed between runs), with their labels.
func order(m *matrix.Matrix, results []analyze.Result) ([]string, map[string]string) {
	labels := map[string]string{}
	var names []string
	if m != nil {
		for _, r := range m.Rows {
			names = append(names, r.Name)
			labels[r.Name] = r.Label
		}
	}
	var present []string
	seen := map[string]bool{}
	for _, r := range results {
		if !seen[r.Row] {
			seen[r.Row] = true
			present = append(present, r.Row)
			if labels[r.Row] == "" {
				labels[r.Row] = r.Label
			}
		}
	}
	var out []string
	for _, n := range names {
		if seen[n] {
			out = append(out, n)
		}
	}
	for _, n := range present {
		if !contains(out, n) {
			out = append(out, n)
		}
	}
	return out, labels
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func notes(m *matrix.Matrix, results []analyze.Result) []string {
	n := []string{
		fmt.Sprintf("* Token figures are estimates with the %s encoding (github.com/tiktoken-go/tokenizer) over the decoded request text; no public tokenizer matches Anthropic's models.", tokens.Encoding),
		"Placement, chars kept, cap and codewords come from the recorded API requests; server saw from the lab's message log; debug log and server status from the client's own files. The reader's answer is what a perfect reader of the last request would reply.",
	}
	if m != nil && m.Baseline != "" {
		n = append(n, fmt.Sprintf("Baseline for Δ: row %q of the same client.", m.Baseline))
	}
	live := false
	models := map[string][]string{}
	var order []string
	for _, r := range results {
		live = live || r.Live
		if r.Observation.Model != "" && !contains(models[r.Client], r.Observation.Model) {
			if models[r.Client] == nil {
				order = append(order, r.Client)
			}
			models[r.Client] = append(models[r.Client], r.Observation.Model)
		}
	}
	for _, c := range order {
		n = append(n, fmt.Sprintf("Model reported by %s: %s.", c, strings.Join(models[c], ", ")))
	}
	other := map[string][]string{}
	var otherOrder []string
	for _, r := range results {
		for _, o := range r.Other {
			if !contains(other[r.Client], o) {
				if other[r.Client] == nil {
					otherOrder = append(otherOrder, r.Client)
				}
				other[r.Client] = append(other[r.Client], o)
			}
		}
	}
	for _, c := range otherOrder {
		n = append(n, fmt.Sprintf("Other requests %s made to the API address (answered by the fake, recorded): %s.", c, strings.Join(other[c], ", ")))
	}
	if live {
		n = append(n, "Live runs: the answers are the real model's; token figures are still estimates.")
	}
	var warned []string
	for _, r := range results {
		if len(r.Warnings) > 0 {
			warned = append(warned, fmt.Sprintf("%s %s #%d: %d warning(s), first: %s", r.Client, r.Row, r.Repeat, len(r.Warnings), r.Warnings[0]))
		}
	}
	sort.Strings(warned)
	return append(n, warned...)
}

// join formats each repeat and collapses them when equal.
func (s *summary) join(f func(r *analyze.Result) string) string {
	var vals []string
	for _, r := range s.results {
		v := f(r)
		if v == "" {
			v = "—"
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return "—"
	}
	all := true
	for _, v := range vals[1:] {
		all = all && v == vals[0]
	}
	if all {
		return vals[0]
	}
	return strings.Join(vals, " / ")
}
