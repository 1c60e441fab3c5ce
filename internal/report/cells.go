package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

func (s *summary) runs() string {
	ok := 0
	var reasons []string
	for _, r := range s.results {
		if r.Status == "ok" {
			ok++
		} else {
			reasons = append(reasons, r.Reason)
		}
	}
	if ok == len(s.results) {
		return fmt.Sprintf("%d ok", ok)
	}
	return fmt.Sprintf("%d ok, %d FAILED: %s", ok, len(s.results)-ok, strings.Join(unique(reasons), "; "))
}

func (s *summary) same() string {
	if len(s.results) < 2 {
		return "—"
	}
	keys := map[string]bool{}
	for _, r := range s.results {
		keys[r.RequestKey] = true
	}
	if len(keys) == 1 && !keys[""] {
		return "yes"
	}
	return fmt.Sprintf("no (%d variants)", len(keys))
}

func handshakeText(r *analyze.Result) string {
	h := r.Handshake
	if len(h.Methods) == 0 {
		return "nothing"
	}
	var parts []string
	for _, m := range h.Methods {
		if m == "notifications/initialized" {
			m = "initialized"
		}
		if len(parts) > 0 && parts[len(parts)-1] == m {
			continue
		}
		parts = append(parts, m)
		if len(parts) == 4 {
			break
		}
	}
	out := strings.Join(parts, " → ")
	if h.DiscoverAnswer != "" {
		out += fmt.Sprintf("; discover answered %s", h.DiscoverAnswer)
	}
	if !h.InitializeSent {
		out += "; initialize never sent"
	}
	return out
}

// probeDelay is the range of the delays from server/discover to
// initialize over the repeats.
func (s *summary) probeDelay() string {
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, r := range s.results {
		if d := r.Handshake.ProbeToFallbackMS; d != nil {
			lo, hi, n = math.Min(lo, *d), math.Max(hi, *d), n+1
		}
	}
	switch {
	case n == 0:
		return "—"
	case duration(lo) == duration(hi):
		return duration(lo)
	}
	return duration(lo) + " – " + duration(hi)
}

// ready says when the handshake completed relative to the first model
// request (whether the client waited for the server), as a range over the
// repeats.
func (s *summary) ready() string {
	var before, after []time.Duration
	never := 0
	for _, r := range s.results {
		switch {
		case r.Handshake.Ready.IsZero():
			never++
		case r.First != nil && !r.First.Time.IsZero():
			if d := r.First.Time.Sub(r.Handshake.Ready); d >= 0 {
				before = append(before, d)
			} else {
				after = append(after, -d)
			}
		}
	}
	var parts []string
	if len(before) > 0 {
		parts = append(parts, durRange(before)+" before the first request")
	}
	if len(after) > 0 {
		parts = append(parts, durRange(after)+" after the first request")
	}
	if never > 0 {
		parts = append(parts, "never")
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "; ")
}

// durRange formats the range of ds in seconds, to 0.1 s.
// timing says which runs' results depend on the order of the server's
// readiness and the first request (matrix.Timing), with the first one's
// reason, and otherwise the server's own start-up and the load the runs
// saw, as in "start-up 0.0–0.1 s; load 2.3–4.1".
func (s *summary) timing() string {
	var why string
	n := 0
	var startups []time.Duration
	var loads []float64
	for _, r := range s.results {
		if r.Timing.Sensitive {
			if n++; why == "" {
				why = r.Timing.Why
			}
		}
		if r.Timing.StartupMS != nil {
			startups = append(startups, time.Duration(*r.Timing.StartupMS*float64(time.Millisecond)))
		}
		if r.Timing.Load != nil {
			loads = append(loads, r.Timing.Load.Max())
		}
	}
	if n > 0 {
		return fmt.Sprintf("timing-sensitive in %d of %d: %s", n, len(s.results), why)
	}
	var parts []string
	if len(startups) > 0 {
		parts = append(parts, "start-up "+durRange(startups))
	}
	if len(loads) > 0 {
		lo, hi := slices.Min(loads), slices.Max(loads)
		l := fmt.Sprintf("load %.1f", lo)
		if fmt.Sprintf("%.1f", hi) != fmt.Sprintf("%.1f", lo) {
			l += fmt.Sprintf("–%.1f", hi)
		}
		parts = append(parts, l)
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, "; ")
}

func durRange(ds []time.Duration) string {
	lo, hi := ds[0], ds[0]
	for _, d := range ds {
		lo, hi = min(lo, d), max(hi, d)
	}
	a, b := fmt.Sprintf("%.1f", lo.Seconds()), fmt.Sprintf("%.1f", hi.Seconds())
	if a == b {
		return a + " s"
	}
	return a + "–" + b + " s"
}

func toolsText(r *analyze.Result) string {
	if r.First == nil {
		return ""
	}
	if r.ServerTexts != nil {
		return fmt.Sprintf("%d; yours: %s", len(r.First.Tools), toolDescriptionsText(r))
	}
	return fmt.Sprint(len(r.First.Tools))
}

func duration(ms float64) string {
	if ms < 1000 {
		return fmt.Sprintf("%.0f ms", ms)
	}
	return fmt.Sprintf("%.1f s", ms/1000)
}

func placementText(r *analyze.Result) string {
	if len(r.Servers) > 0 {
		return serversText(r.Servers)
	}
	if r.Sent == 0 {
		return "n/a (no text sent)"
	}
	b := r.First.Best()
	if b == nil {
		return "nowhere"
	}
	kinds := []string{}
	for _, p := range r.First.Placements {
		if !contains(kinds, string(p.Kind)) {
			kinds = append(kinds, string(p.Kind))
		}
	}
	out := strings.Join(kinds, " + ")
	if b.Wrapper != "" {
		out += " (after " + quote(b.Wrapper) + ")"
	}
	return out
}

// quote shows a client's or server's text in a cell, in double quotes
// with Go escapes: plain text in every format, no Markdown syntax that
// would show as itself in HTML.
func quote(s string) string { return strconv.Quote(s) }

func keptText(r *analyze.Result) string {
	if r.Sent == 0 {
		return "—"
	}
	b := r.First.Best()
	if b == nil {
		return fmt.Sprintf("0 of %s", table.Num(r.Sent))
	}
	out := fmt.Sprintf("%s of %s", table.Num(b.Kept), table.Num(r.Sent))
	if u := unitsText(r); u != "" {
		out += " (" + u + ")"
	}
	if b.Trimmed > 0 {
		out += fmt.Sprintf(", %s of white space trimmed", table.Plural(b.Trimmed, "character"))
	}
	if !b.Full {
		if strings.HasPrefix(b.Suffix, analyze.TruncationSuffix) {
			out += " + " + quote(analyze.TruncationSuffix)
		} else {
			out += ", then " + quote(b.Suffix)
		}
		if r.ServerTexts != nil { // a user's server: name what was lost
			out += "; " + analyze.LostTail(r.ServerTexts.Instructions[b.Reply], b.Kept+b.Trimmed) // Trimmed, when cut, is white space it started with
		}
	}
	return out
}

// toolDescriptionsText says what became of a user's server's tool
// descriptions in the first request: how many arrived whole, where and
// how the tools reached the model (definitions, a listing, names alone),
// each cut description with its lost tail, and the tools never sent.
func toolDescriptionsText(r *analyze.Result) string {
	if len(r.Tools) == 0 {
		return "no tools listed"
	}
	whole, trimmed := 0, 0
	var places []string
	count := map[string]int{}
	var notes, never []string
	for _, t := range r.Tools {
		if t.Full {
			whole++
		}
		if t.Trimmed > 0 {
			trimmed++
		}
		if t.Via == "" {
			never = append(never, t.Name)
			continue
		}
		where := toolPlace(t)
		if count[where] == 0 {
			places = append(places, where)
		}
		count[where]++
		if t.Found && !t.Full {
			note := fmt.Sprintf("%s: %s of %s", t.Name, table.Num(t.Kept), table.Num(t.Sent))
			if t.Suffix != "" {
				note += ", then " + quote(firstLine(t.Suffix))
			}
			notes = append(notes, note+", "+t.Lost)
		}
	}
	out := []string{fmt.Sprintf("%d of %d whole", whole, len(r.Tools))}
	if trimmed > 0 {
		out[0] += fmt.Sprintf(" (%d with white space at the start or end trimmed, no cut)", trimmed)
	}
	for _, p := range places {
		out = append(out, fmt.Sprintf("%d %s", count[p], p))
	}
	out = append(out, notes...)
	if len(never) > 0 {
		out = append(out, "never reached the model: "+strings.Join(never, ", "))
	}
	return strings.Join(out, "; ")
}

// toolPlace says how and where one tool reached the model.
func toolPlace(t analyze.ToolFacts) string {
	where := string(t.Kind)
	if t.Wrapper != "" {
		where += ", after " + quote(t.Wrapper)
	}
	switch t.Via {
	case analyze.ViaDefinition:
		return "in tool definitions"
	case analyze.ViaListing:
		return "listed with the description in " + where
	case analyze.ViaNamespace:
		return "not named, only the server's namespace, in " + where
	default:
		return "named only, the description not sent, in " + where
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// capText is the cap a run implies, in the unit unit.CapOf decides for
// its cut given what the client's default cap counts (f): named when it
// is not code points (a text may keep one unit less than the cap where
// the next character is two units wide); else the code points kept.
func capText(r *analyze.Result, f unit.Finding) string {
	b := r.First.Best()
	switch {
	case r.Sent == 0 || b == nil:
		return "—"
	case b.Full:
		return "≥ " + table.Num(r.Sent)
	}
	if s, ok := r.Sample(); ok {
		if u, c, ok := f.CapOf(s); ok && u != unit.CodePoint {
			return table.Num(c) + " " + u.Short()
		}
	}
	return table.Num(b.Kept)
}

// transcriptText is what the client's transcript recorded adding: the
// characters of the server's text in its instruction blocks.
func transcriptText(r *analyze.Result) string {
	if r.Sent == 0 && len(r.Observation.Instructions) == 0 {
		return "—"
	}
	if len(r.Transcript) == 0 {
		if n := len(r.Observation.Instructions); n > 0 {
			return fmt.Sprintf("%d block(s) without the text", n)
		}
		return "no block"
	}
	var parts []string
	for _, p := range r.Transcript {
		parts = append(parts, fmt.Sprintf("%s chars, %s", table.Num(p.Kept), strings.TrimPrefix(string(p.Kind), "role ")))
	}
	return strings.Join(unique(parts), "; ")
}

func eraText(r *analyze.Result) string {
	if r.Sent == 0 {
		return "—"
	}
	var eras []string
	for _, q := range r.Requests {
		for _, p := range q.Placements {
			if !slices.Contains(eras, string(p.Reply)) {
				eras = append(eras, string(p.Reply))
			}
		}
	}
	if len(eras) == 0 {
		return "none"
	}
	sort.Strings(eras)
	return strings.Join(eras, " + ")
}

// answerText is the client's final answer, compared with the reader's.
func answerText(r *analyze.Result) string {
	switch {
	case r.ModelAnswer == "":
		return "none"
	case r.ModelAnswer == r.Reader.Line():
		return "= reader"
	}
	a := r.ModelAnswer
	if p, ok := fakeapi.ParseLine(a); ok && p == r.Reader {
		return "= reader"
	}
	return unit.CodePoint.Clip(strings.ReplaceAll(a, "\n", " "), 80)
}

func sizeText(r *analyze.Result) string {
	if r.First == nil {
		return "no request"
	}
	return fmt.Sprintf("%s / %s", table.Num(r.First.Chars), table.Num(r.First.Tokens))
}

func laterText(r *analyze.Result) string {
	if len(r.Requests) < 2 {
		return ""
	}
	var parts []string
	for i := range r.Requests {
		q := &r.Requests[i]
		if r.First != nil && q.Seq == r.First.Seq {
			continue
		}
		where := "nowhere"
		if b := q.Best(); b != nil {
			where = fmt.Sprintf("%s, %s chars", b.Kind, table.Num(b.Kept))
		}
		side := ""
		if q.Side {
			side = " (side request, no tools)"
		}
		parts = append(parts, fmt.Sprintf("#%d%s: %s tokens*, %s", i+1, side, table.Num(q.Tokens), where))
	}
	return strings.Join(parts, "; ")
}

func debugText(r *analyze.Result) string {
	o := r.Observation
	var parts []string
	for _, t := range o.Truncations {
		parts = append(parts, fmt.Sprintf("truncated %s → %s", table.Num(t.From), table.Num(t.To)))
	}
	if o.Era != "" || o.NegotiatedVersion != "" {
		parts = append(parts, strings.TrimSpace(o.Era+" "+o.NegotiatedVersion))
	}
	return strings.Join(parts, "; ")
}

// deltaText is the mean first-request token estimate of s minus that of
// the baseline.
func deltaText(s, base *summary) string {
	if base == nil || s == base {
		return "—"
	}
	for _, r := range s.results {
		if r.NoDelta {
			return "n/a (not comparable)"
		}
	}
	a, okA := meanTokens(s)
	b, okB := meanTokens(base)
	if !okA || !okB {
		return "—"
	}
	d := int(math.Round(a - b))
	if d >= 0 {
		return "+" + table.Num(d)
	}
	return "−" + table.Num(-d)
}

// deltaTokens is deltaText's number, false when there is none.
func deltaTokens(s, base *summary) (float64, bool) {
	if base == nil || s == base {
		return 0, false
	}
	for _, r := range s.results {
		if r.NoDelta {
			return 0, false
		}
	}
	a, okA := meanTokens(s)
	b, okB := meanTokens(base)
	return a - b, okA && okB
}

func meanTokens(s *summary) (float64, bool) {
	sum, n := 0, 0
	for _, r := range s.results {
		if r.First != nil && r.Status == "ok" {
			sum += r.First.Tokens
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(sum) / float64(n), true
}

func unique(list []string) []string {
	var out []string
	for _, s := range list {
		if !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// runsKey is what diff compares of the runs: whether they all ended ok,
// not why one failed (a timeout's wording is not a change of the client).
func (s *summary) runsKey() string {
	for _, r := range s.results {
		if r.Status != "ok" {
			return "some failed"
		}
	}
	return "all ok"
}

// waiting says whether the client waited for the server before its first
// model request, in each repeat, without the timings: what diff compares
// of "server ready".
func (s *summary) waiting() string {
	var ways []string
	for _, r := range s.results {
		w := "never ready"
		switch {
		case r.Handshake.Ready.IsZero():
		case r.First == nil || r.First.Time.IsZero():
			w = "no request"
		case !r.First.Time.Before(r.Handshake.Ready):
			w = "waited"
		default:
			w = "did not wait"
		}
		if !contains(ways, w) {
			ways = append(ways, w)
		}
	}
	sort.Strings(ways)
	return strings.Join(ways, " / ")
}

// KeptCell, PlacementCell and ToolsCell are the "chars kept", "placement"
// and "tools sent" cells of one run, for tests that compare or show them.
func KeptCell(r *analyze.Result) string      { return keptText(r) }
func PlacementCell(r *analyze.Result) string { return placementText(r) }
func ToolsCell(r *analyze.Result) string     { return toolsText(r) }

// armText is the arm a run was in, how it was set, and the arm the
// client's own output names, when it names one.
func armText(r *analyze.Result) string {
	t := r.Arm.Name
	if r.Arm.How != "" && r.Arm.How != "nothing set" {
		t += " (" + r.Arm.How + ")"
	}
	if a := r.Observation.ArmSaid(); a != "" {
		t += "; client says " + a
	}
	return t
}
