package budget

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// A kind is one budget Measure knows: what its runs vary, how one run is
// read, and how its number is written.
type kind struct {
	name, unit string
	search     Search
	// timed says the budget is a time, met by a race: its runs may
	// disagree near the edge, and on the timeline two measurements are
	// the same unless their brackets lie apart (atlas.Span). A budget that
	// is not timed is a count read from what the client sent, the same in
	// every run: on the timeline its value compares as text.
	timed bool
	// vary sets the probe row to the value v, naming it.
	vary func(row *matrix.Row, v float64)
	// outcome reads one run set to v.
	outcome func(v float64, r analyze.Result) Outcome
	// past says what the client does past the budget, from the runs past
	// it, the one nearest the edge first.
	past func(f Found, past []analyze.Result) string
	// format writes one value; say writes the budget found, given the
	// measurement that is neither failed nor unresolved.
	format func(v float64) string
	say    func(m Measurement) string
	// annotate, when set, adds to the number what the runs show beside
	// it (the descriptions' size at the edge; the client's whole name).
	annotate func(f Found, runs []analyze.Result) string
	// late, when set, says whether what the server sent after the
	// budget still reached the model, from the runs past it (the wait
	// budget's late server); "not measured" otherwise.
	late func(past []analyze.Result) string
	// names, when set, is what the runs at the edge show of the names
	// the client gives the tools, for the profile (the tool-name limit's
	// nameRecord); ok are the runs that did not fail, past those past
	// the budget, the nearest first.
	names func(f Found, ok, past []analyze.Result, server string) *profiles.Names
	// note is what the table's notes say of the budget.
	note string
	// astral, when set, sets the probe row to n characters of text
	// outside the Basic Multilingual Plane (each one code point, two
	// UTF-16 units, four UTF-8 bytes), read by outcome as a value of n:
	// runs of it at the edge tell what the client counts (Counts).
	astral func(row *matrix.Row, n int)
	// sent is what the server sent of the text a run measured, in each
	// unit (astral's runs).
	sent func(r analyze.Result) sentSize
}

// Names of the budgets Measure knows.
const (
	Wait       = profiles.BudgetWait
	Defer      = profiles.BudgetDefer
	NameLength = profiles.BudgetName
)

// kinds are the budgets, in the order of Names.
var kinds = []kind{waitKind(), deferKind(), nameKind(), resultKind(), callKind()}

// Names lists the budgets Measure knows, for -budget's help and errors.
var Names = func() []string {
	var out []string
	for _, k := range kinds {
		out = append(out, k.name)
	}
	return out
}()

// kindOf is the kind named name; ok is false for none.
func kindOf(name string) (kind, bool) {
	for _, k := range kinds {
		if k.name == name {
			return k, true
		}
	}
	return kind{}, false
}

func waitKind() kind {
	return kind{name: Wait, unit: "s", search: WaitSearch(), timed: true,
		vary: func(row *matrix.Row, v float64) {
			hold := time.Duration(v * float64(time.Second)).Round(time.Millisecond)
			if hold > 0 {
				row.ReadyAfter = hold
			}
			row.Label += fmt.Sprintf(", the server ready %s after its start", hold)
		},
		outcome: waitOutcome,
		past:    pastBudget,
		late:    lateServer,
		format:  seconds,
		say: func(m Measurement) string {
			switch {
			case m.Below:
				return "under " + seconds(m.Past)
			case m.Above:
				return "at least " + seconds(m.Within)
			}
			return seconds(m.Within) + "–" + seconds(m.Past)
		},
		note: "wait: how long the client waits, before its first model request, for a server still starting; the server was ready the value after its process started (ready_after), and the budget lies between the longest delay waited for and the shortest not, each met by a run."}
}

// Exact is the Resolution of a count: one.
func Exact(float64) float64 { return 1 }

// Halve is Next for a count: the whole number halfway between.
func Halve(within, past float64) float64 { return math.Floor((within + past) / 2) }

// The deferral threshold's range: the lab's own three tools to 512.
const deferMax = 512

// DeferSearch is the deferral threshold's search: the lab serving 3 to
// 512 tools in all, bisected to the exact count, from 257 first: a client
// that never defers, or defers any server's tools, is told in 2 runs, any
// other count in at most ceil(log2(509)) + 1 = 10.
func DeferSearch() Search {
	return Search{Lo: float64(len(labvocab.OwnTools)), Hi: deferMax, Resolution: Exact, Next: Halve, SplitFirst: true}
}

func deferKind() kind {
	return kind{name: Defer, unit: "tools", search: DeferSearch(),
		vary: func(row *matrix.Row, v float64) {
			row.Tools = int(v)
			row.Label += fmt.Sprintf(", the lab serving %d tools", int(v))
		},
		outcome:  deferOutcome,
		past:     deferPast,
		annotate: deferNote,
		format:   func(v float64) string { return count(v, "tool") },
		say: func(m Measurement) string {
			switch {
			case m.Below:
				return fmt.Sprintf("defers at %s already, the fewest the lab serves%s", count(m.Past, "tool"), m.Note)
			case m.Above:
				return fmt.Sprintf("does not defer up to %s%s", count(m.Within, "tool"), m.Note)
			}
			return fmt.Sprintf("defers from %s (not at %.0f)%s", count(m.Past, "tool"), m.Within, m.Note)
		},
		note: "defer: the count of tools, the lab's own three and generated ones of about 350 characters of description each, from which the client no longer defines every tool of the server in its first model request (it defers them behind its tool search, or drops some); the descriptions' size at the edge is in characters, as the server sent them."}
}

// deferOutcome reads one run of the deferral threshold: within while every
// tool the server listed is a tool definition of the first request.
func deferOutcome(v float64, r analyze.Result) Outcome {
	o := Outcome{Value: v, At: v, Dir: r.Dir}
	defined := 0
	for _, t := range r.Tools {
		if t.Via == analyze.ViaDefinition {
			defined++
		}
	}
	switch {
	case r.Status != "ok":
		o.Failed = r.Reason
	case len(r.Tools) == 0:
		o.Failed = "the lab's tools/list is not in its log"
	case raced(r) != "":
		o.Failed = raced(r)
	case v == DeferSearch().Lo && !r.Timing.HadServer:
		// With the fewest tools, a first request that shows nothing of
		// the server (no text, no tool, no status) is of a client that
		// shows none of it there, or had not connected it: not a
		// deferral (as Droid's wait, waitOutcome).
		o.Failed = fmt.Sprintf("cannot tell: with %d tools the first request shows nothing of the server (no text, no tool, no status), so whether the client defers its tools or has not connected it is not in the request", int(v))
	}
	o.Within = len(r.Tools) > 0 && defined == len(r.Tools)
	return o
}

// raced says why a run of a count tells nothing because of a race: its
// first request shows nothing of the server, which became ready only
// after it (the client did not wait for it); "" when it did not race.
func raced(r analyze.Result) string {
	t := r.Timing
	if t.HadServer || t.LeadMS == nil || *t.LeadMS > 0 {
		return ""
	}
	return fmt.Sprintf("the server was ready %s after the first request, which shows none of it: a race with the client's wait, not a count", seconds(-*t.LeadMS/1000))
}

// deferPast says what the client does with the tools past its threshold,
// from the run nearest it: how many it defines, how many it names in a
// text (with their descriptions, or by name), and its tool search.
func deferPast(f Found, past []analyze.Result) string {
	if len(past) == 0 {
		return "not measured"
	}
	r := past[0]
	n := map[string]int{}
	for _, t := range r.Tools {
		n[t.Via]++
	}
	var parts []string
	if d := n[analyze.ViaDefinition]; d > 0 {
		parts = append(parts, fmt.Sprintf("defines %d of the %d", d, len(r.Tools)))
	}
	if k := n[analyze.ViaListing] + n[analyze.ViaNameOnly] + n[analyze.ViaNamespace]; k > 0 {
		s := fmt.Sprintf("defers %d", k)
		var how []string
		for _, via := range []string{analyze.ViaListing, analyze.ViaNameOnly, analyze.ViaNamespace} {
			if n[via] > 0 {
				how = append(how, fmt.Sprintf("%d %s", n[via], via))
			}
		}
		s += " (" + strings.Join(how, ", ") + ")"
		if search := searchTool(r); search != "" {
			s += " behind its " + search
		}
		parts = append(parts, s)
	}
	if gone := n[""]; gone > 0 {
		parts = append(parts, fmt.Sprintf("sends %d of them nowhere", gone))
	}
	return strings.Join(parts, "; ") + fmt.Sprintf(" (at %d tools)", len(r.Tools))
}

// searchTool is the first request's tool that searches tools (Claude
// Code's ToolSearch, Qwen Code's tool_search), if it offers one.
func searchTool(r analyze.Result) string {
	if r.First == nil {
		return ""
	}
	for _, name := range r.First.Tools {
		if strings.Contains(strings.ToLower(name), "search") && strings.Contains(strings.ToLower(name), "tool") {
			return name
		}
	}
	return ""
}

// descriptionSize is the characters of the descriptions of the tools the
// server listed in run r.
func descriptionSize(r analyze.Result) int {
	n := 0
	for _, t := range r.Tools {
		n += t.Sent
	}
	return n
}

// deferNote is the size of the tools' descriptions on either side of the
// threshold: " (descriptions 11,940 characters at 40 tools, 12,240 at
// 41)".
func deferNote(f Found, runs []analyze.Result) string {
	var sides []string
	for _, v := range []float64{f.Within, f.Past} {
		for _, r := range runs {
			if len(r.Tools) == int(v) && v > 0 {
				sides = append(sides, fmt.Sprintf("%s characters at %d tools", table.Num(descriptionSize(r)), len(r.Tools)))
				break
			}
		}
	}
	if len(sides) == 0 {
		return ""
	}
	return " (descriptions " + strings.Join(sides, ", ") + ")"
}

// The tool-name length's range: a name of 1 to 256 characters.
const nameMax = 256

// NameSearch is the tool-name limit's search: a tool named with 1 to 256
// characters, bisected to the exact length, from 128 first: at most
// ceil(log2(255)) + 1 = 9 runs.
func NameSearch() Search {
	return Search{Lo: 1, Hi: nameMax, Resolution: Exact, Next: Halve, SplitFirst: true}
}

func nameKind() kind {
	return kind{name: NameLength, unit: "characters", search: NameSearch(),
		vary: func(row *matrix.Row, v float64) {
			row.NameLength = int(v)
			row.Label += fmt.Sprintf(", a tool named with %d characters", int(v))
		},
		outcome:  nameOutcome,
		past:     namePast,
		annotate: func(f Found, runs []analyze.Result) string { return nameNote(f.Within, runs) },
		names:    nameRecord,
		format:   func(v float64) string { return count(v, "character") },
		say: func(m Measurement) string {
			switch {
			case m.Below:
				return fmt.Sprintf("refuses a tool name of %s already", count(m.Past, "character"))
			case m.Above:
				return fmt.Sprintf("accepts a tool name of %s, the longest tried%s", count(m.Within, "character"), m.Note)
			}
			return fmt.Sprintf("accepts a tool name of up to %s%s", count(m.Within, "character"), m.Note)
		},
		note: "name: the longest name of a tool (the server's, without the client's prefix) that reaches the model whole, and what the client does with one a character longer; the name as the client sends it, its prefix included, is in parentheses."}
}

// nameOutcome reads one run of the tool-name limit: within when the long
// tool reached the first request under its whole name (defined, or named
// in a text of a client that defers its tools).
func nameOutcome(v float64, r analyze.Result) Outcome {
	o := Outcome{Value: v, At: v, Dir: r.Dir}
	switch {
	case r.Status != "ok":
		o.Failed = r.Reason
	case len(r.Tools) == 0:
		o.Failed = "the lab's tools/list is not in its log"
	case raced(r) != "":
		o.Failed = raced(r)
	case v == NameSearch().Lo && !slices.ContainsFunc(r.Tools, named):
		// With the shortest name, none of the server's tools named in
		// the first request (none there, or only its namespace, as
		// Codex's deferred namespaces): no name is read there at all.
		o.Failed = fmt.Sprintf("cannot tell: with a %d-character name none of the server's %d tools is named in the first request (no definition, no listing, no name; at most its namespace), so no name can be read there", int(v), len(r.Tools))
	}
	t, ok := longTool(r, int(v))
	switch {
	case ok:
		// Named: a definition found by its description alone holds it
		// under another name (cut or renamed past recognition), and one
		// renamed with a part of the name cut (before a hash) is past.
		o.Within = named(t) && (t.Via != analyze.ViaDefinition || fakeapi.ToolNamed(t.As, t.Name) || fakeapi.RenamedWhole(t.As, t.Name))
	case o.Failed == "":
		// The name is what the server's tools/list sent, not what was
		// asked: a server that sends another measures nothing.
		o.Failed = fmt.Sprintf("the server's tools/list has no tool named with the %d characters asked (%s): what it sent is measured, and it was not the name the search needs", int(v), labvocab.LongToolName(int(v)))
	}
	return o
}

// named says whether the first request names tool t (a definition, a
// listing, a name in a text), not only its server's namespace.
func named(t analyze.ToolFacts) bool { return t.Via != "" && t.Via != analyze.ViaNamespace }

// longTool is the facts of run r's tool of an n-character name.
func longTool(r analyze.Result, n int) (analyze.ToolFacts, bool) {
	want := labvocab.LongToolName(n)
	for _, t := range r.Tools {
		if t.Name == want {
			return t, true
		}
	}
	return analyze.ToolFacts{}, false
}

// qualifyNamespace names each of the lab's tools that r's first request
// offers inside the server's namespace (a Responses API namespace
// mcp__SERVER listed before its members: Codex CLI 0.171.0 with a model
// outside its catalogue) as the client qualifies it, mcp__SERVER__NAME.
// The client's limit is on that whole name: Codex cut a tool name to 118
// characters behind mcp__lab (128 in all) and to 106 behind
// mcp__labserverlonger (2026-12-03, instrlab budget -budget name with
// docs/examples/codex-local-model.matrix.json and a second server row).
func qualifyNamespace(r *analyze.Result, server string) {
	if r.First == nil {
		return
	}
	ns := "mcp__" + server
	member := func(s string) bool {
		return strings.HasPrefix(s, "lname") || slices.ContainsFunc(r.Tools, func(t analyze.ToolFacts) bool { return t.Name == s })
	}
	first := *r.First
	first.Tools = slices.Clone(first.Tools)
	in, changed := false, false
	for i, s := range first.Tools {
		switch {
		case s == ns:
			in = true
		case in && member(s):
			first.Tools[i], changed = ns+"__"+s, true
		default:
			in = false
		}
	}
	if changed {
		r.First = &first
	}
}

// clientName is the name the client gave the tool named name in its
// first request: a definition named for it, or "" for none.
func clientName(r analyze.Result, name string) string {
	if r.First == nil {
		return ""
	}
	for _, s := range r.First.Tools {
		if fakeapi.ToolNamed(s, name) {
			return s
		}
	}
	return ""
}

// nameNote is the client's whole name for the longest tool name accepted,
// from the run that accepted it: " (as mcp__lab__lname…, 64 with its
// prefix)".
func nameNote(within float64, runs []analyze.Result) string {
	for _, r := range runs {
		if t, ok := longTool(r, int(within)); ok && t.Via == analyze.ViaDefinition {
			if s := clientName(r, t.Name); s == t.Name {
				return " (sent as it is, with no prefix)"
			} else if s != "" {
				return fmt.Sprintf(" (%s with the client's prefix %q)", count(float64(len(s)), "character"), strings.TrimSuffix(s, t.Name))
			}
		}
	}
	return ""
}

// namePast says what the client does with a tool name past its limit,
// from the run nearest it: fails, drops the tool, drops the server, cuts
// the name (to how many characters) or rewrites it.
func namePast(f Found, past []analyze.Result) string {
	says, _ := nameFate(f, past)
	return says
}

// nameFate is namePast's text and, where the run nearest the limit shows
// it, the name a character past it as a profile records it (its Full
// length left for nameRecord, which knows the prefix): cut (to Got
// characters, the prefix included, Hash when "_" and a hash follow the
// cut), rewritten, or dropped (the tool, or the whole server); nil when
// the run cannot tell (a client that names its tools in a text).
func nameFate(f Found, past []analyze.Result) (string, *profiles.NameLength) {
	if len(past) == 0 {
		return "not measured", nil
	}
	r := past[0]
	n := int(f.Past)
	others, defined := 0, 0
	for _, t := range r.Tools {
		if t.Name != labvocab.LongToolName(n) && named(t) {
			others++
			if t.Via == analyze.ViaDefinition {
				defined++
			}
		}
	}
	long := labvocab.LongToolName(n)
	l := &profiles.NameLength{Tool: long, Chars: n, Runs: 1}
	as := func(fate, s string, hash bool) *profiles.NameLength {
		l.Fate, l.Name, l.Hash = fate, s, hash
		if s != "" {
			l.Got = utf8.RuneCountInString(s)
		}
		return l
	}
	if r.First != nil {
		for _, s := range r.First.Tools {
			i := strings.Index(s, "lname")
			if i < 0 || fakeapi.ToolNamed(s, long) {
				continue
			}
			kept := strings.TrimRight(s[i:], ".…")
			if strings.HasPrefix(long, kept) {
				mark := ""
				if len(kept) < len(s[i:]) {
					mark = fmt.Sprintf(", marked %q", s[i+len(kept):])
				}
				return fmt.Sprintf("cuts it to %s with its prefix (%s of the name's %d kept%s)", count(float64(len(s)), "character"), count(float64(len(kept)), "character"), n, mark), as(profiles.FateCut, s, false)
			}
			if head, tail, ok := strings.Cut(s[i:], "..."); ok && strings.HasPrefix(long, head) && strings.HasSuffix(long, tail) {
				return fmt.Sprintf("cuts it to %s with its prefix, keeping its first %d and last %d characters around \"...\"", count(float64(len(s)), "character"), len(head), len(tail)), as(profiles.FateCut, s, false)
			}
			if j := strings.LastIndexByte(s, '_'); j > i && strings.HasPrefix(long, s[i:j]) {
				return fmt.Sprintf("cuts it to %s with its prefix, the name's first %d characters, \"_\" and a hash of %d (%s)", count(float64(len(s)), "character"), j-i, len(s)-j-1, unit.CodePoint.Clip(s, 80)), as(profiles.FateCut, s, true)
			}
			return fmt.Sprintf("renames it: %s, %s with its prefix", unit.CodePoint.Clip(s, 80), count(float64(len(s)), "character")), as(profiles.FateRewritten, s, false)
		}
	}
	switch {
	case others > 0 && defined == 0:
		// A client that defers names its tools in a text, where only a
		// whole name is read: a cut or renamed one is not told from none.
		return fmt.Sprintf("does not name it whole (the server's %d other tools are named in a text, where a cut or renamed name is not read: it drops or renames it)", others), nil
	case others > 0:
		return fmt.Sprintf("drops the tool (the server's %d other tools reach the model)", others), as(profiles.FateDropped, "", false)
	}
	return "drops the server (none of its tools reaches the model)", as(profiles.FateDropped, "", false)
}

// nameRecord is what the runs at the name limit's edge show of the
// client's names, as a profile keeps it (profiles.Budget.Names): the
// client's prefix, {server} standing for the runs' server; the longest
// name kept whole; and the name a character past it, each with its
// whole length. It is nil when no run shows the prefix: none defined
// the long tool, whole or cut (a client that names its tools in a
// text).
func nameRecord(f Found, ok, past []analyze.Result, server string) *profiles.Names {
	prefix, known := "", false
	var kept *profiles.NameLength
	if !f.Below {
		for _, r := range ok {
			if t, found := longTool(r, int(f.Within)); found && t.Via == analyze.ViaDefinition {
				if s := clientName(r, t.Name); s != "" {
					prefix, known = strings.TrimSuffix(s, t.Name), true
					kept = &profiles.NameLength{Tool: t.Name, Chars: int(f.Within), Fate: profiles.FateKept, Got: utf8.RuneCountInString(s), Name: s, Runs: 1}
					break
				}
			}
		}
	}
	var beyond *profiles.NameLength
	if !f.Above {
		_, beyond = nameFate(f, past)
	}
	if !known && beyond != nil && beyond.Name != "" {
		if i := strings.Index(beyond.Name, "lname"); i >= 0 {
			prefix, known = beyond.Name[:i], true
		}
	}
	if !known {
		return nil
	}
	n := &profiles.Names{Prefix: strings.Replace(prefix, server, "{server}", 1), Server: server}
	for _, l := range []*profiles.NameLength{kept, beyond} {
		if l != nil {
			l.Full = utf8.RuneCountInString(prefix) + l.Chars
			n.Lengths = append(n.Lengths, *l)
		}
	}
	return n
}

// count writes n things: "1 tool", "40 tools".
func count(n float64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return table.Num(int(n)) + " " + thing + "s"
}
