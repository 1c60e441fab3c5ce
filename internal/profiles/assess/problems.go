package assess

import (
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/loss"
)

// A Problem is one kind of loss on a server, over every tool and client
// it holds for: the findings of one code and kind (a schema keyword, the
// cut of the instructions) at one severity. check's default output lists
// problems, the worst first, each with what the model loses at worst
// and the fix; -v lists the findings behind them.
type Problem struct {
	Severity loss.Severity `json:"severity"`
	Fails    bool          `json:"fails,omitempty"`
	Code     Code          `json:"code"`
	// Kinds tell it from other problems of its code: the schema keywords
	// of a schema-lost problem.
	Kinds []string `json:"kinds,omitempty"`
	// Loss is what the model loses where it loses most, in a few words
	// (Finding.Loss of the worst finding); Losses counts the findings'
	// different losses (several cuts at several caps).
	Loss   string `json:"loss"`
	Losses int    `json:"losses"`
	// Tools are the server's tools it holds for, in the server's order;
	// none for a problem about the server or its instructions.
	Tools []string `json:"tools,omitempty"`
	// For are the clients it holds for, each with its ways; none for a
	// problem about the server itself.
	For []Holder `json:"for,omitempty"`
	// Fix is what the author can change, with the worst finding's
	// numbers.
	Fix string `json:"fix"`
	// Findings are the indexes in Server.Findings of its findings.
	Findings []int `json:"findings"`
}

// problems groups merged findings into problems: one per code, kind,
// severity and rule, in the order of the findings (those that fail
// first, then the worst).
func problems(fs []Finding, views []View) []Problem {
	type key struct {
		code       Code
		kind, rule string
		severity   loss.Severity
		fails      bool
	}
	var out []Problem
	at := map[key]int{}
	worst := map[int]int{} // problem → its worst finding's index
	losses := map[int][]string{}
	for i, f := range fs {
		k := key{f.Code, f.kind, f.Rule, f.Severity, f.Fails}
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, Problem{Severity: f.Severity, Fails: f.Fails, Code: f.Code})
			if f.kind != "" {
				out[len(out)-1].Kinds = []string{f.kind}
			}
			worst[j] = i
		}
		p := &out[j]
		p.Findings = append(p.Findings, i)
		if f.Tool != "" && !slices.Contains(p.Tools, f.Tool) {
			p.Tools = append(p.Tools, f.Tool)
		}
		if !slices.Contains(losses[j], f.Loss) {
			losses[j] = append(losses[j], f.Loss)
		}
		if w := fs[worst[j]]; f.worst > 0 && (w.worst == 0 || f.worst < w.worst) {
			worst[j] = i
		}
		p.For = mergeHolders(p.For, f.For)
	}
	for j := range out {
		w := fs[worst[j]]
		out[j].Loss, out[j].Fix, out[j].Losses = w.Loss, w.TheFix(), len(losses[j])
		if out[j].Losses > 1 && w.worst == 0 {
			// Losses of one kind that no number orders: the code's words.
			d := w.Code.Doc()
			out[j].Loss, out[j].Fix = d.Short, d.Fix
		}
	}
	out = mergeKinds(fs, out)
	for j := range out {
		summarize(out[j].For, views)
	}
	return out
}

// mergeKinds makes one problem of those of one code, severity and rule
// whose fix is the same words, with their kinds, tools and clients
// together: one line per kind of loss (`enum` dropped by one client and
// `minimum` by three, both "say the constraint in the description too"),
// the findings apart under -v.
func mergeKinds(fs []Finding, ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		i := slices.IndexFunc(out, func(q Problem) bool {
			return len(q.Kinds) > 0 && len(p.Kinds) > 0 && q.Code == p.Code && q.Severity == p.Severity && q.Fails == p.Fails && q.Fix == p.Fix
		})
		if i < 0 {
			out = append(out, p)
			continue
		}
		q := &out[i]
		for _, k := range p.Kinds {
			if !slices.Contains(q.Kinds, k) {
				q.Kinds = append(q.Kinds, k)
			}
		}
		q.Findings = append(q.Findings, p.Findings...)
		slices.Sort(q.Findings)
		q.Tools = q.Tools[:0]
		for _, j := range q.Findings {
			if t := fs[j].Tool; t != "" && !slices.Contains(q.Tools, t) {
				q.Tools = append(q.Tools, t)
			}
		}
		q.For = mergeHolders(q.For, p.For)
		q.Losses += p.Losses
	}
	return out
}

// summarize says each holder's ways in words (Holder.Summary), of the
// ways views has of its client.
func summarize(hs []Holder, views []View) {
	for i := range hs {
		hs[i].Summary = waysSummary(hs[i].Ways, waysOf(views, hs[i].Profile, hs[i].Client))
	}
}

// mergeHolders adds the holders of b to a, each client once with the
// union of its ways.
func mergeHolders(a, b []Holder) []Holder {
	for _, h := range b {
		i := slices.IndexFunc(a, func(g Holder) bool { return g.Profile == h.Profile && g.Client == h.Client })
		if i < 0 {
			a = append(a, Holder{Client: h.Client, Profile: h.Profile})
			i = len(a) - 1
		}
		for _, w := range h.Ways {
			if !slices.Contains(a[i].Ways, w) {
				a[i].Ways = append(a[i].Ways, w)
			}
		}
	}
	return a
}

// Clients counts the client versions a problem holds for.
func (p Problem) Clients() int { return len(p.For) }

// Subject says what the problem is about, before its loss: "tool echo",
// "3 tools (echo, add, get-env)", "13 tools (echo, add, …)"; "" when it
// is about no tool.
func (p Problem) Subject() string {
	return toolsSubject(p.Tools)
}

// toolsSubject names tools as a subject: one by name, a few by name, many
// by count and the first names.
func toolsSubject(tools []string) string {
	const shown = 3
	switch n := len(tools); {
	case n == 0:
		return ""
	case n == 1:
		return "tool " + tools[0]
	case n <= shown:
		return fmt.Sprintf("%d tools (%s)", n, strings.Join(tools, ", "))
	default:
		return fmt.Sprintf("%d tools (%s, …)", n, strings.Join(tools[:shown-1], ", "))
	}
}

// Said is the problem's loss with its subject: "3 tools (a, b, c): the
// model gets structuredContent, not the content text".
func (p Problem) Said() string {
	if s := p.Subject(); s != "" {
		return s + ": " + p.Loss
	}
	return p.Loss
}

// Whom names the clients a problem holds for, each with its ways.
func (p Problem) Whom() string {
	return Finding{For: p.For}.Whom()
}
