package reference

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/schema"
)

// index is the reference's front page: a row per client with the facts a
// server author asks first, and the property pages.
func index(src Source, cs []client) []byte {
	p := newPage(&src, "README.md", "Client reference: what each client does with what your server sends")
	p.para("Every value here was measured: read from the recorded requests of offline runs of the real client against instrlab's fake model API (the built-in profiles, internal/profiles/data) and from the atlases of the versions swept (atlas/ and each sweep beneath it). Where no run measured a fact it says \"" + notMeasured + "\". A client's page has a column per profiled version and, where the atlas swept its history, since which version each value holds.")
	head := []string{"client", "versions profiled"}
	for _, g := range groups {
		head = append(head, g.headline.name)
	}
	head = append(head, "history swept")
	var rows [][]string
	for _, c := range cs {
		n := c.newest()
		row := []string{p.local(c.name, clientFile(c.id)), p.cell(versions(c))}
		for _, g := range groups {
			row = append(row, p.cell(g.headline.of(n)))
		}
		rows = append(rows, append(row, p.cell(history(c))))
	}
	p.heading(2, "Clients")
	p.para("A column per property group, its newest profiled version's headline fact; each group's page has the rest.")
	p.table(head, rows)
	p.heading(2, "By property, across clients")
	var items []string
	for _, g := range groups {
		items = append(items, p.local(g.title, g.file)+": "+p.text(g.intro))
	}
	p.list(items)
	p.heading(2, "As data")
	p.list([]string{
		p.local("compat.json", "compat.json") + p.text(": the instructions, handshake, start-up, tool-result, input-schema, tool-name, approval and protocol facts per client in browser-compat-data's shape (a feature tree whose leaves' __compat.support is keyed by client, version_added and version_removed from the atlas's swept spans, \"≤V\" where only version V was profiled; flagged statements for the models and approval modes the newest version was measured in, where they change the statement), with its clients and their releases (each with the day npm published it, where a sweep kept one); schema "+schema.File(schema.Compat)+"."),
		p.local("presets.json", "presets.json") + p.text(": per client version, the flags a generated server adapts its tools to (top-level unions, $ref, unions, formats, the tool-name length), each measured or null, with what showed it; schema "+schema.File(schema.Presets)+"."),
	})
	p.para("Written by: " + src.Command + " (or go test ./internal/report/reference -update); a test fails when a page differs from what it writes.")
	return p.bytes()
}

func versions(c client) string {
	vs := make([]string, len(c.versions))
	for i, p := range c.versions {
		vs[i] = p.Version
	}
	return strings.Join(vs, ", ")
}

func history(c client) string {
	var out []string
	for _, t := range c.timelines {
		if len(t.Versions) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("%s: %s, %s to %s, %s", path.Base(t.dir), table.Plural(len(t.Versions), "version"), t.Versions[0], t.Versions[len(t.Versions)-1], table.Plural(len(t.Changes), "change")))
	}
	if len(out) == 0 {
		return "not swept"
	}
	return strings.Join(out, "; ")
}

// groupPage is one property group across clients: a row per client's
// newest version.
func groupPage(src Source, g group, cs []client) []byte {
	p := newPage(&src, g.file, g.title+": every client")
	p.para(g.intro, "One row per client, its newest profiled version; a client's page has its other versions, the notes and the evidence.")
	for _, s := range g.sectionsFor(cs) {
		if s.title != "" {
			p.heading(2, s.title)
		}
		head := []string{"client"}
		for _, f := range s.facts {
			head = append(head, p.cell(f.name))
		}
		var rows [][]string
		for _, c := range cs {
			n := c.newest()
			row := []string{p.local(n.Named(), clientFile(c.id))}
			for _, f := range s.facts {
				row = append(row, p.cell(f.of(n)))
			}
			rows = append(rows, row)
		}
		p.table(head, rows)
	}
	return p.bytes()
}

// clientPage is one client: each group as a table with a column per
// version, the ways it was run, its history, what was not measured and
// the evidence.
func clientPage(src Source, c client) []byte {
	p := newPage(&src, clientFile(c.id), c.name+": what it does with each thing your server sends")
	n := c.newest()
	p.para(fmt.Sprintf("Client %s; profiled versions %s (newest first).", c.id, versions(c)), modelOf(n), "Each table has a column per profiled version: what the runs of that version measured, in the way the built-in matrix runs the client.")
	p.block(p.local("All clients", "README.md"))
	head := []string{""}
	for _, v := range c.versions {
		head = append(head, p.cell(v.Version))
	}
	for _, g := range groups {
		p.heading(2, g.title)
		var rows [][]string
		for _, f := range g.factsFor([]client{c}) {
			row := []string{p.cell(f.name)}
			for _, v := range c.versions {
				row = append(row, p.cell(f.of(v)))
			}
			rows = append(rows, row)
		}
		if len(rows) == 0 {
			p.para(notMeasured + ".")
		} else {
			p.table(head, rows)
		}
		if g.notes != nil {
			for _, note := range g.notes(n) {
				if note != "" {
					p.para("Measured on " + n.Version + ": " + note)
				}
			}
		}
		p.block(p.local(g.title+" across clients", g.file))
	}
	ways(p, c)
	since(p, c)
	p.heading(2, "Not measured")
	for _, v := range c.versions {
		items := make([]string, len(v.Unmeasured))
		for i, u := range v.Unmeasured {
			items[i] = p.text(u)
		}
		if len(items) == 0 {
			p.para(v.Version + ": every fact above was measured or documented.")
			continue
		}
		p.para(v.Version + ":")
		p.list(items)
	}
	p.heading(2, "Evidence")
	for _, v := range c.versions {
		var items []string
		for _, e := range v.Evidence {
			what := e.Kind
			if e.Runs > 0 {
				what += fmt.Sprintf(", %d runs", e.Runs)
			}
			if e.Date != "" {
				what += ", " + e.Date
			}
			items = append(items, p.link(e.Ref, evidenceLink(e.Ref))+" ("+p.text(what)+"): "+p.text(e.Says))
		}
		p.para(v.Version + ":")
		p.list(items)
	}
	return p.bytes()
}

// evidenceLink is where an evidence ref links: a URL, or a file of the
// repository's evidence (internal/, atlas/, docs/); a run's id or a file
// outside the repository (a seed of the project's workspace) links
// nowhere.
func evidenceLink(ref string) string {
	for _, in := range []string{"https://", "internal/", "atlas/", "docs/"} {
		if strings.HasPrefix(ref, in) {
			return ref
		}
	}
	return "" // a run's id, or a file outside the repository
}

func modelOf(p profiles.Profile) string {
	if p.Model == "" {
		return ""
	}
	return "The newest version's runs named the model " + p.Model + "."
}

// ways is each version's other ways of running the client (arms, models,
// flags) and what changes in them.
func ways(p *page, c client) {
	if !slices.ContainsFunc(c.versions, func(v profiles.Profile) bool { return len(v.Variants) > 0 }) {
		return
	}
	p.heading(2, "Other ways to run it")
	p.para("Arms, models and switches the runs measured besides the matrix's way; what a way does not change is as above.")
	for _, v := range c.versions {
		if len(v.Variants) == 0 {
			continue
		}
		var rows [][]string
		for _, w := range v.Variants {
			td := "as above"
			if w.ToolDescriptions != nil {
				td = kept(*w.ToolDescriptions)
			}
			res, image, schema := notMeasured, notMeasured, notMeasured
			if w.Surface != nil {
				s := profiles.Profile{Surface: w.Surface}
				res, image, schema = result(s, profiles.ResultBoth), result(s, profiles.ResultImage), schemaFates(s)
			}
			deferred := notMeasured
			if b := variantBudget(v, w, profiles.BudgetDefer); b != nil {
				deferred = budget(*b)
			}
			rows = append(rows, []string{p.cell(w.When), p.cell(table.Num(w.Runs)), p.cell(instructions(w.Instructions, w.Render)), p.cell(orNot(w.Render.Where())), p.cell(td), p.cell(res), p.cell(image), p.cell(schema), p.cell(deferred)})
		}
		p.heading(3, v.Version)
		p.table([]string{"way", "runs", "instructions", "where", "tool descriptions", "a result with text and structuredContent", "an image", "schema keywords", "defer"}, rows)
	}
}

// since is the client's history in each atlas: its change points and the
// values of each span of versions, every value linked to its run.
func since(p *page, c client) {
	if len(c.timelines) == 0 {
		p.heading(2, "Since which version")
		p.para("Not swept: the atlas has no history of this client; only the profiled versions above were measured.")
		return
	}
	p.heading(2, "Since which version")
	for _, t := range c.timelines {
		p.heading(3, "Every version: "+strings.Join(t.properties, ", "))
		p.para(fmt.Sprintf("%s selected (%s), %d run (%d could not run); %s. Swept on %s by: %s", table.Plural(len(t.Versions), "published version"), t.Selector, t.Ran, t.CouldNotRun, table.Plural(len(t.Changes), "change point"), t.Sweep.Date, t.Sweep.Command))
		p.block(p.link("The atlas page", t.dir+"/atlas.md"))
		if len(t.Changes) > 0 {
			var rows [][]string
			for _, ch := range t.Changes {
				first := ch.First
				if !ch.Exact {
					first = "between " + ch.Before + " and " + ch.First
				}
				var what []string
				for _, pc := range ch.Props {
					what = append(what, pc.Name+": "+pc.Before+" → "+pc.After)
				}
				conf := "no"
				switch {
				case ch.Confirmed:
					conf = "yes"
				case ch.Flaky:
					conf = "flaky"
				}
				row := []string{p.cell(first), p.cell(ch.Before), p.cell(strings.Join(what, "; ")), conf}
				if len(t.Released) > 0 {
					row = slices.Insert(row, 1, t.ReleaseDate(ch.First))
				}
				rows = append(rows, row)
			}
			head := []string{"first version", "last before", "what changed", "confirmed"}
			if len(t.Released) > 0 {
				head = slices.Insert(head, 1, "released")
			}
			p.table(head, rows)
		}
		segments(p, t)
	}
}

// segments is a table of the spans of versions over which every property
// held, each value linked to the run it was read from.
func segments(p *page, t timeline) {
	if len(t.Segments) == 0 {
		return
	}
	head := []string{"versions"}
	for _, name := range t.properties {
		head = append(head, p.cell(name))
	}
	var rows [][]string
	for _, s := range t.Segments {
		span := s.From
		if s.To != s.From {
			span += " to " + s.To
		}
		row := []string{p.cell(span)}
		for _, name := range t.properties {
			row = append(row, propCell(p, t, s.Props, name))
		}
		rows = append(rows, row)
	}
	p.table(head, rows)
}

func propCell(p *page, t timeline, props atlas.Props, name string) string {
	for _, pr := range props {
		if pr.Name == name {
			if pr.Evidence == "" {
				return p.cell(pr.Value)
			}
			return p.link(orNot(pr.Value), t.dir+"/"+pr.Evidence)
		}
	}
	return p.cell(notMeasured)
}
