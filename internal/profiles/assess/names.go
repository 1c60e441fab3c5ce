package assess

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
)

// nameBudget is p's tool-name budget measured with nothing set, nil when
// it has none.
func nameBudget(p profiles.Profile) *profiles.Budget { return countBudget(p, profiles.BudgetName) }

// countBudget is p's budget of that name counted in characters (the
// tool-name limit, the result size) and measured with nothing set, nil
// when it has none.
func countBudget(p profiles.Profile, name string) *profiles.Budget {
	return defaultBudget(p, name, "characters")
}

// defaultBudget is p's budget of that name, in unit u, measured with
// nothing set, nil when it has none.
func defaultBudget(p profiles.Profile, name, u string) *profiles.Budget {
	for i, b := range p.Budgets {
		if b.Name == name && len(b.Settings) == 0 && b.Unit == u {
			return &p.Budgets[i]
		}
	}
	return nil
}

// nameFate predicts the client's name for f.Tool of server from what the
// profile measured of names: n, its surface's (nil when not measured),
// and b, its tool-name budget (nil when none).
//
// A client counts its whole name, its prefix and the server's name
// included: every limit measured is a round whole length (64 with
// Cline's lab__ and Droid's lab___, 63 with Gemini CLI's mcp_lab_, 128
// with Claude Code's mcp__lab__), so f.Name is the name with the prefix
// for this server and is compared with the whole names measured. The
// budget counts the tool's name alone, in its runs' server: a name is
// within it at or under Within, past it at or over Past, each moved by
// the difference between this server's prefix and that of the runs
// (budgetSide). Past the budget it fares as the budget's run a character
// past it did (cut, not offered, renamed) or as the surface measured a
// longer name; past both, and where they disagree, it is not measured.
//
// Its characters (a dot, a hyphen, upper case, non-ASCII letters), and
// its being the start of another of the server's names (all) or starting
// with one, fare as the surface's name of the same kind did.
func nameFate(f *SurfaceFate, n *profiles.Names, b *profiles.Budget, server string, all []string) {
	pre := n
	if pre == nil && b != nil {
		pre = b.Names
	}
	tool := utf8.RuneCountInString(f.Tool)
	f.Chars = tool
	if pre != nil {
		f.Name = pre.PrefixFor(server) + f.Tool
		f.Chars = utf8.RuneCountInString(f.Name)
	}
	kept, dropAt, cutTo, cutAt, hash := 0, 0, 0, 0, false
	var chars []profiles.NameChars
	if n != nil {
		for _, l := range n.Lengths {
			switch l.Fate {
			case profiles.FateKept:
				kept = max(kept, l.Full)
			case profiles.FateDropped:
				if dropAt == 0 || l.Full < dropAt {
					dropAt = l.Full
				}
			case profiles.FateCut:
				if cutAt == 0 || l.Full < cutAt {
					cutTo, cutAt, hash = l.Got, l.Full, l.Hash
				}
			}
		}
		labPrefix := utf8.RuneCountInString(n.PrefixFor(n.Server))
		for _, c := range n.Chars {
			if c.Fate == profiles.FateKept {
				kept = max(kept, labPrefix+utf8.RuneCountInString(c.Tool))
			}
		}
		chars = n.Chars
	}
	surfaceCut := cutTo > 0 && f.Chars > cutTo
	surfaceDrop := dropAt > 0 && f.Chars >= dropAt
	var within, past bool
	var beyond *profiles.NameLength
	if b != nil {
		within, past = budgetSide(*b, pre, server, tool)
		beyond = budgetPast(*b)
	}
	surface := "" // what the surface measured against the budget
	switch {
	case within && (surfaceCut || surfaceDrop):
		notWhole := cutAt
		if dropAt > 0 && (notWhole == 0 || dropAt < notWhole) {
			notWhole = dropAt
		}
		surface = fmt.Sprintf("a name of %s was not kept whole", table.Num(notWhole))
	case past && f.Chars <= kept:
		surface = fmt.Sprintf("a name of %s was kept whole", table.Num(kept))
	}
	switch {
	case surface != "":
		f.NameNote = fmt.Sprintf("a name of %s characters: the measurements disagree (%s; the surface's: %s)", table.Num(f.Chars), budgetWords(*b, pre), surface)
		return
	case past && beyond != nil && beyond.Fate == profiles.FateCut:
		f.NameFate, f.CutTo = profiles.FateCut, beyond.Got
		f.NameNote = fmt.Sprintf("cut to %s characters%s (%s)", table.Num(beyond.Got), thenHash(beyond.Hash), budgetWords(*b, pre))
	case past && beyond != nil && beyond.Fate == profiles.FateDropped:
		f.NameFate = profiles.FateDropped
		f.NameNote = fmt.Sprintf("not offered (%s)", budgetWords(*b, pre))
	case past && beyond != nil && beyond.Fate == profiles.FateRewritten:
		f.NameFate = profiles.FateRewritten
		f.NameNote = fmt.Sprintf("renamed (%s)", budgetWords(*b, pre))
	case surfaceCut:
		f.NameFate, f.CutTo = profiles.FateCut, cutTo
		f.NameNote = fmt.Sprintf("cut to %s characters%s (measured: a name of %s was)", table.Num(cutTo), thenHash(hash), table.Num(cutAt))
	case surfaceDrop:
		f.NameFate = profiles.FateDropped
		f.NameNote = fmt.Sprintf("not offered (measured: a name of %s was not)", table.Num(dropAt))
	case past:
		// Past the budget, what became of the name not read (a client
		// that names its tools in a text): not kept whole, no more.
		f.NameNote = fmt.Sprintf("a name of %s characters is past the longest kept whole (%s)", table.Num(f.Chars), budgetWords(*b, pre))
		return
	case f.Chars <= kept || within:
		f.NameFate = profiles.FateKept
	case b != nil:
		f.NameNote = fmt.Sprintf("a name of %s characters (%s)", table.Num(f.Chars), budgetWords(*b, pre))
		if measured := budgetServer(*b); pre == nil && utf8.RuneCountInString(server) != utf8.RuneCountInString(measured) {
			f.NameNote += fmt.Sprintf(": this server's name is %s characters, %s's %s, and the client's prefix may hold it", table.Num(utf8.RuneCountInString(server)), measured, table.Num(utf8.RuneCountInString(measured)))
		}
		return
	default:
		f.NameNote = fmt.Sprintf("a name of %s characters: kept whole up to %s", table.Num(f.Chars), table.Num(kept))
		return
	}
	for _, kind := range profiles.NameKinds(f.Tool, all) {
		i := slices.IndexFunc(chars, func(c profiles.NameChars) bool { return c.Kind == kind })
		switch {
		case i < 0:
			if f.NameFate == profiles.FateKept {
				f.NameFate, f.NameNote = NotMeasured, "a name with "+kindWords(kind)
			}
		case chars[i].Fate == profiles.FateDropped:
			f.NameFate, f.NameNote = profiles.FateDropped, fmt.Sprintf("not offered (measured: %s, with %s, was not)", chars[i].Tool, kindWords(kind))
		case chars[i].Fate == profiles.FateRewritten && f.NameFate == profiles.FateKept:
			f.NameFate, f.NameNote = profiles.FateRewritten, fmt.Sprintf("renamed (measured: %s, with %s, became %s)", chars[i].Tool, kindWords(kind), chars[i].Name)
		case chars[i].Fate == profiles.FateVaries && f.NameFate == profiles.FateKept:
			f.NameFate, f.NameNote = NotMeasured, "a name with "+kindWords(kind)+": the runs disagree"
		}
	}
	serverChars(f, n, server)
}

// serverChars applies what the client was measured to make of a server's
// name with each kind of character in server's (Names.Servers, the
// surface-names-server row): kept, or rewritten character for character
// as the measured name was (Codex CLI 0.171.0 made lab-hyphen's namespace
// mcp__lab_hyphen, and so server-everything's mcp__server_everything); the
// tool's own name is kept behind it. Where a kind was not measured in a
// server's name, the name is not measured, whatever the client does with
// that kind in a tool's name (the runs of one differ from the other's).
func serverChars(f *SurfaceFate, n *profiles.Names, server string) {
	if n == nil || f.NameFate != profiles.FateKept || !strings.Contains(n.Prefix+n.Namespace, "{server}") {
		return
	}
	renamed := server
	for _, kind := range profiles.CharKinds(server) {
		if j := slices.IndexFunc(n.Servers, func(c profiles.NameChars) bool { return c.Kind == kind }); j >= 0 {
			m := n.Servers[j]
			to, ok := rewriteAs(renamed, m.Tool, m.Name, kind)
			switch {
			case m.Fate == profiles.FateKept:
				continue
			case m.Fate == profiles.FateRewritten && ok:
				renamed = to
				continue
			}
			f.NameFate = NotMeasured
			f.NameNote = fmt.Sprintf("the server's name %s has %s, which the runs did not show one way (measured: %s, %s)", server, kindWords(kind), m.Tool, m.Fate)
			return
		}
		f.NameFate = NotMeasured
		f.NameNote = fmt.Sprintf("the server's name %s has %s; what the client makes of them in the prefix before a tool's name was not measured", server, kindWords(kind))
		if i := slices.IndexFunc(n.Chars, func(c profiles.NameChars) bool { return c.Kind == kind }); i >= 0 {
			f.NameNote += fmt.Sprintf(" (in a tool's name: %s, measured with %s)", n.Chars[i].Fate, n.Chars[i].Tool)
		}
		return
	}
	if renamed != server {
		f.Name = n.PrefixFor(renamed) + f.Tool
		f.Chars = utf8.RuneCountInString(f.Name)
	}
}

// rewriteAs rewrites each character of kind in name as the client rewrote
// it in from, which became to: character for character, where from and to
// have as many characters and every other character of from was kept;
// false otherwise (a rewrite that is not one character for one).
func rewriteAs(name, from, to, kind string) (string, bool) {
	f, t := []rune(from), []rune(to)
	if len(f) != len(t) {
		return "", false
	}
	is := func(r rune) bool { return slices.Equal(profiles.CharKinds(string(r)), []string{kind}) }
	as := map[rune]rune{}
	for i, r := range f {
		switch {
		case is(r):
			if was, ok := as[r]; ok && was != t[i] {
				return "", false
			}
			as[r] = t[i]
		case r != t[i]:
			return "", false
		}
	}
	out := []rune(name)
	for i, r := range out {
		if is(r) {
			to, ok := as[r]
			if !ok {
				return "", false
			}
			out[i] = to
		}
	}
	return string(out), true
}

func thenHash(hash bool) string {
	if hash {
		return ", then _ and a hash"
	}
	return ""
}

// labServer is the lab's server's name in runs (matrix.ServerName, which
// check does not link: TestLabServerName holds the two the same).
const labServer = "lab"

// budgetServer is the server's name in the runs of the tool-name budget
// b: the one it recorded, else the lab's, which the probe row of every
// budget that recorded none served (budget.ProbeRow).
func budgetServer(b profiles.Budget) string {
	if b.Names != nil && b.Names.Server != "" {
		return b.Names.Server
	}
	return labServer
}

// budgetSide says on which side of the tool-name budget b a tool name of
// tool characters of server is. The budget counts the tool's name alone,
// in its runs' server; the client counts its whole name, so the name is
// moved by the difference between the two servers' prefixes: exactly,
// where pre is the client's prefix measured; else (not measured) by
// anything from nothing to the difference between the two servers' names,
// as every prefix measured holds the server's name once or not at all.
// within: at or under Within wherever it is moved; past: at or over Past
// wherever it is moved. A name for which neither holds lies between.
func budgetSide(b profiles.Budget, pre *profiles.Names, server string, tool int) (within, past bool) {
	measured := budgetServer(b)
	lo, hi := tool, tool
	if pre != nil {
		d := utf8.RuneCountInString(pre.PrefixFor(server)) - utf8.RuneCountInString(pre.PrefixFor(measured))
		lo, hi = tool+d, tool+d
	} else {
		d := utf8.RuneCountInString(server) - utf8.RuneCountInString(measured)
		lo, hi = tool+min(0, d), tool+max(0, d)
	}
	within = !b.Below && float64(hi) <= b.Within
	past = !b.Above && float64(lo) >= b.Past
	return within, past
}

// budgetPast is what became of the name a character past the budget b in
// its run, nil when that run could not tell.
func budgetPast(b profiles.Budget) *profiles.NameLength {
	if b.Names == nil || b.Above {
		return nil
	}
	for i, l := range b.Names.Lengths {
		if l.Chars == int(b.Past) && l.Fate != profiles.FateKept {
			return &b.Names.Lengths[i]
		}
	}
	return nil
}

// budgetWords is the evidence of the tool-name budget b, for a note:
// "measured: names up to 64 characters kept, 65 cut; instrlab budget,
// 2026-12-03", the lengths as the client names them with pre's prefix
// for the runs' server; or, when the prefix was not measured, the
// tool's name alone with the runs' server named. Past a budget whose
// fate is not a cut, what the client does is said in the budget's own
// words (it drops the tool, or the whole server; it does not name it
// whole, where its run could not tell more).
func budgetWords(b profiles.Budget, pre *profiles.Names) string {
	what, lp := "measured: names", 0
	if pre != nil {
		lp = utf8.RuneCountInString(pre.PrefixFor(budgetServer(b)))
	} else {
		what = fmt.Sprintf("measured with a server named %s, whose prefix the runs did not show: tool names", budgetServer(b))
	}
	within, past := table.Num(int(b.Within)+lp), table.Num(int(b.Past)+lp)
	fate, says := "not", b.PastBudget
	if l := budgetPast(b); l != nil {
		switch l.Fate {
		case profiles.FateCut:
			fate, says = "cut", ""
		case profiles.FateDropped:
			fate = "not offered"
		case profiles.FateRewritten:
			fate = "renamed"
		}
	}
	if says != "" && says != NotMeasured {
		says = "; past it the client " + says
	} else {
		says = ""
	}
	var s string
	switch {
	case b.Above:
		s = fmt.Sprintf("%s up to %s characters kept, the longest tried", what, within)
	case b.Below:
		s = fmt.Sprintf("%s of %s characters and more not kept whole%s", what, past, says)
	default:
		s = fmt.Sprintf("%s up to %s characters kept, %s %s%s", what, within, past, fate, says)
	}
	return s + "; instrlab budget, " + b.Date
}
