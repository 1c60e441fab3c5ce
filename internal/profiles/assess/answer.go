package assess

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// The answer for a server on one screen: a verdict per client (and per
// group of its ways where the verdict differs), then the problems, the
// worst first, each with its fix. VerdictTable and ProblemTable are the
// models; the terminal (WriteText) and Markdown (WriteMarkdown) print
// them.

// A verdictRow is a line of the verdicts: a client (its newest version,
// with its older versions of the same verdict), or (sub) a group of that
// version's ways, or of its older versions, whose verdict differs.
type verdictRow struct {
	verdict loss.Verdict
	client  string
	sub     bool
	decides string
	// first is the worst loss alone; least and most how many more losses
	// the line's clients have (mergeAlike: the fewest and the most of the
	// clients it names).
	first       string
	least, most int
}

// rowOf is the line of verdict c: its client (or, sub, its way).
func rowOf(c ClientVerdict, client string, sub bool) verdictRow {
	r := verdictRow{verdict: c.Verdict, client: client, sub: sub, decides: c.Decides()}
	if len(c.Because) > 0 {
		r.first = c.Because[0]
		r.least = len(c.Because) - 1 + c.More
		r.most = r.least
	}
	return r
}

// verdictRows are the lines of the verdicts, each client named once: a
// line for its newest version (the last of its profiles, which are
// ordered by version), naming its older versions whose own verdict and
// deciding loss are the same ("Kilo Code CLI 7.7.9 (and 7.7.7)"); under
// it a line for each group of that version's other ways whose verdict
// differs, then for the other older versions (those with the same
// verdict and loss together).
// Ways whose verdict is not measured, and older versions' other ways,
// are left to -v and JSON.
func verdictRows(s Server) []verdictRow {
	type version struct {
		own  ClientVerdict
		ways []ClientVerdict
	}
	var keys []string
	groups := map[string][]version{}
	for _, c := range s.Verdicts {
		key, _, _ := strings.Cut(c.Profile, "@")
		if c.Summary != "" {
			if vs := groups[key]; len(vs) > 0 {
				vs[len(vs)-1].ways = append(vs[len(vs)-1].ways, c)
			}
			continue
		}
		if _, ok := groups[key]; !ok {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], version{own: c})
	}
	var rows []verdictRow
	for _, key := range keys {
		vs := groups[key]
		newest := vs[len(vs)-1]
		head := rowOf(newest.own, newest.own.Client, false)
		var alike []string
		var older []verdictRow
		for _, v := range vs[:len(vs)-1] {
			_, version := splitVersion(v.own.Client)
			if version == "" {
				version = v.own.Client
			}
			if v.own.Verdict == newest.own.Verdict && slices.Equal(v.own.Because[:min(1, len(v.own.Because))], newest.own.Because[:min(1, len(newest.own.Because))]) {
				alike = append(alike, version) // the same word for the same loss
				continue
			}
			if i := slices.IndexFunc(older, func(r verdictRow) bool { return r.verdict == v.own.Verdict && r.decides == v.own.Decides() }); i >= 0 {
				older[i].client += ", " + version
				continue
			}
			older = append(older, rowOf(v.own, version, true))
		}
		if len(alike) > 0 {
			head.client += " (and " + strings.Join(alike, ", ") + ")"
		}
		rows = append(rows, head)
		for _, w := range newest.ways {
			if w.Verdict != newest.own.Verdict && w.Verdict != loss.VerdictUnknown {
				rows = append(rows, rowOf(w, w.Summary, true))
			}
		}
		rows = append(rows, older...)
	}
	return mergeAlike(rows)
}

// mergeAlike names on one line the clients whose line says the same
// verdict for the same worst loss ("broken
// Vercel AI SDK 7.0.185, OpenAI Agents SDK 0.20.0: gets none of the
// instructions (+1)"), at the first one's place, with how many more
// losses they have where that is the same for each (the problems below
// and -v name them all), and the lines under each client after it,
// named for their client: seventeen clients' verdicts stay on one
// screen.
func mergeAlike(rows []verdictRow) []verdictRow {
	// A client's line and the lines under it.
	type block struct {
		head  verdictRow
		subs  []verdictRow
		named bool // its subs name their client
	}
	var blocks []block
	for _, r := range rows {
		if r.sub && len(blocks) > 0 {
			b := &blocks[len(blocks)-1]
			b.subs = append(b.subs, r)
			continue
		}
		blocks = append(blocks, block{head: r})
	}
	var merged []block
	for _, b := range blocks {
		r := b.head
		if r.first != "" {
			if j := slices.IndexFunc(merged, func(o block) bool { return o.head.verdict == r.verdict && o.head.first == r.first }); j >= 0 {
				m := &merged[j]
				// The lines under each client name it, once clients share
				// a line.
				if !m.named {
					for i := range m.subs {
						m.subs[i].client = named(m.head.client, m.subs[i].client)
					}
					m.named = true
				}
				for _, s := range b.subs {
					s.client = named(r.client, s.client)
					m.subs = append(m.subs, s)
				}
				o := &m.head
				o.client += ", " + r.client
				o.least, o.most = min(o.least, r.least), max(o.most, r.most)
				more := 0
				if o.least == o.most {
					more = o.most
				}
				o.decides = loss.Decides([]string{o.first}, more)
				continue
			}
		}
		merged = append(merged, b)
	}
	var out []verdictRow
	for _, b := range merged {
		out = append(out, b.head)
		out = append(out, b.subs...)
	}
	return out
}

// named is a line under client's line named for it: its name and the
// line's own words ("Claude Code 2.1.285, 2.1.328", "opencode
// tools-denied").
func named(client, sub string) string {
	if i := strings.Index(client, " (and "); i >= 0 {
		client = client[:i]
	}
	name, _ := splitVersion(client)
	return name + " " + sub
}

// splitVersion parts "Kilo Code CLI 7.7.9" into its name and version; the
// version is "" when the last word does not start with a digit.
func splitVersion(client string) (name, version string) {
	i := strings.LastIndexByte(client, ' ')
	if i < 0 || i+1 >= len(client) || client[i+1] < '0' || client[i+1] > '9' {
		return client, ""
	}
	return client[:i], client[i+1:]
}

// VerdictTable is the verdicts as a table: verdict, client (or, indented,
// a group of its ways), and what decides it.
func VerdictTable(s Server) table.Table {
	t := table.Table{Columns: []table.Column{{Name: "verdict"}, {Name: "client"}, {Name: "what decides it"}}}
	for _, r := range verdictRows(s) {
		client := r.client
		if r.sub {
			client = "↳ " + client
		}
		t.Rows = append(t.Rows, []table.Cell{{Text: string(r.verdict)}, {Text: client}, {Text: r.decides}})
	}
	return t
}

// Decides is what decides the verdict, in a cell: the worst loss, and
// how many more; "" for a client that works.
func (c ClientVerdict) Decides() string { return loss.Decides(c.Because, c.More) }

// shownProblems are the problems the default output lists (degraded or
// worse, or failing), and those it folds.
func shownProblems(s Server) (shown, folded []Problem) {
	for _, p := range s.Problems {
		if p.Severity == loss.Info && !p.Fails {
			folded = append(folded, p)
			continue
		}
		shown = append(shown, p)
	}
	return shown, folded
}

// whose says whom a problem holds for, in a few words: "Cline CLI
// 3.0.65", "6 clients", "the server"; then the tools: "6 clients, 3 tools
// (a, b, c)". A problem about the server alone says its loss too, which
// no verdict says.
func (p Problem) whose() string {
	var who string
	switch n := p.Clients(); n {
	case 0:
		who = "the server: " + p.Said()
		return who
	case 1:
		who = p.For[0].String()
	default:
		who = fmt.Sprintf("%d clients", n)
	}
	if t := p.Subject(); t != "" {
		who += ", " + t
	}
	return who
}

// said is what the default output says of a problem: whom it holds for
// (the clients' losses are in their verdicts); of a problem about the
// server alone, which no verdict says, what was found: all its one
// finding says, or its loss.
func (p Problem) said(fs []Finding) string {
	if p.Clients() > 0 {
		return p.whose()
	}
	if len(p.Findings) == 1 && p.Findings[0] < len(fs) {
		return fs[p.Findings[0]].Said()
	}
	return p.Said()
}

// ProblemTable is the problems as a table: severity (or "fail"), code,
// whom it holds for and the fix; info problems left out unless all.
func ProblemTable(ps []Problem) table.Table {
	t := table.Table{Columns: []table.Column{{Name: "severity"}, {Name: "code"}, {Name: "for"}, {Name: "fix"}}}
	for _, p := range ps {
		t.Rows = append(t.Rows, []table.Cell{{Text: p.level()}, {Text: p.named()}, {Text: p.whose()}, {Text: p.Fix}})
	}
	return t
}

// named is the problem's code with its kinds: "schema-lost (`minimum`,
// `maximum`)".
func (p Problem) named() string {
	if len(p.Kinds) == 0 {
		return string(p.Code)
	}
	return string(p.Code) + " (" + strings.Join(p.Kinds, ", ") + ")"
}

// level is the problem's severity, or "fail" when it fails check.
func (p Problem) level() string {
	if p.Fails {
		return "fail"
	}
	return string(p.Severity)
}

// foldedLine says the problems left out of the default output, by
// code: "probe-ok, name-renamed: nothing lost (-v)".
func foldedLine(folded []Problem) string {
	var codes []string
	for _, p := range folded {
		if !slices.Contains(codes, string(p.Code)) {
			codes = append(codes, string(p.Code))
		}
	}
	if len(codes) == 0 {
		return ""
	}
	return strings.Join(codes, ", ") + ": nothing lost (-v)"
}

// writeAnswer writes the verdicts and the problems of s, each on lines
// of its own wrapped to the width; all notes folded in a line, or, with
// all, each on its lines as the other problems.
func (p *printer) writeAnswer(s Server, all bool) {
	if rows := verdictRows(s); len(rows) > 0 {
		wide := len(loss.VerdictDegraded)
		for _, r := range rows {
			wide = max(wide, len(r.verdict))
		}
		if all := rows[0]; len(rows) > 1 && !slices.ContainsFunc(rows, func(r verdictRow) bool { return r.verdict != all.verdict || r.decides != all.decides }) {
			rows = []verdictRow{{verdict: all.verdict, client: "every client", decides: all.decides}}
		}
		p.b.WriteString(fmt.Sprintf("\n%-*s  client: what decides it\n", wide, "verdict"))
		for _, r := range rows {
			head := fmt.Sprintf("%-*s  ", wide, r.verdict)
			text := r.client
			if r.sub {
				text = "↳ " + text
			}
			if r.decides != "" {
				text += ": " + r.decides
			}
			p.hang(head, line(text))
		}
	}
	shown, folded := shownProblems(s)
	if all {
		shown, folded = s.Problems, nil
	}
	if len(shown)+len(folded) == 0 {
		return
	}
	p.b.WriteString("\n")
	if len(shown) > 0 {
		p.hang("", "to change (instrlab help finding CODE says more)")
	}
	const indent = "          " // under the code, after the severity
	for _, q := range shown {
		l := table.Hang(indent, line(q.named()+": "+q.said(s.Findings)+"; "+q.Fix), p.width)
		p.b.WriteString(fmt.Sprintf("%-8s  ", q.level()) + l[len(indent):])
	}
	if l := foldedLine(folded); l != "" {
		p.hang(fmt.Sprintf("%-8s  ", loss.Info), l)
	}
}

// WriteMarkdown writes the answer for each server as Markdown, for a CI
// job summary: a heading with the server and its verdicts in a line, the
// verdict table, the problems with their fixes (notes folded in a
// line), and where the details are. Every text goes through
// untrusted.Markdown (table.Markdown's cells, and the lines here).
func WriteMarkdown(w io.Writer, rep Report) error {
	var b strings.Builder
	for _, s := range rep.Servers {
		b.WriteString("## " + untrusted.Markdown(s.Target.Name) + "\n\n")
		b.WriteString(untrusted.Markdown(s.Target.String()) + ": " + untrusted.Markdown(VerdictWords(s)) + ".\n\n")
		if len(s.Verdicts) > 0 {
			if err := table.Markdown(&b, VerdictTable(s)); err != nil {
				return err
			}
			b.WriteString("\n")
		}
		shown, folded := shownProblems(s)
		if len(shown) > 0 {
			t := ProblemTable(shown)
			t.Title = "To change"
			if err := table.Markdown(&b, t); err != nil {
				return err
			}
			b.WriteString("\n")
		}
		if l := foldedLine(folded); l != "" {
			b.WriteString("Notes: " + untrusted.Markdown(l) + ".\n\n")
		}
		for _, c := range s.Documented {
			b.WriteString(untrusted.Markdown("Documented by "+c.Provider+", not measured: "+c.Limit+" ("+c.Source+"); past it as the clients send them: "+documentedTools(c)) + ".\n\n")
		}
	}
	b.WriteString("`instrlab help finding CODE` says what a finding means and how it was measured; `instrlab check -v` prints every client's details.\n")
	_, err := io.WriteString(w, b.String())
	return err
}
