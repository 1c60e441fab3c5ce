package atlas

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/schema"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// Formats are the formats an atlas is written in (instrlab report on a
// sweep's directory); StdoutFormats those sweep prints on stdout, beside
// the files it writes.
var (
	Formats       = table.Formats{"md", "json", "html"}
	StdoutFormats = table.Formats{"md", "json"}
)

// Write writes the atlas in one of Formats, evidence links relative to the
// sweep's output.
func (a *Atlas) Write(w io.Writer, format string) error {
	switch format {
	case "json":
		return a.JSON(w)
	case "html":
		return a.HTML(w)
	case "md":
		return a.Markdown(w, "")
	}
	return Formats.Check(format)
}

// Save writes the atlas into the sweep directory dir in every one of
// Formats (atlas.json, atlas.md, atlas.html), each written whole then
// renamed into place, so a reader never sees half a file.
func (a *Atlas) Save(dir string) error {
	d := evidence.SweepDir(dir)
	for _, f := range []struct{ format, path string }{{"json", d.Atlas()}, {"md", d.AtlasMD()}, {"html", d.AtlasHTML()}} {
		tmp, err := os.CreateTemp(dir, filepath.Base(f.path)+".tmp*")
		if err != nil {
			return fmt.Errorf("writing the atlas: %w", err)
		}
		err = a.Write(tmp, f.format)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), f.path)
		}
		if err != nil {
			os.Remove(tmp.Name())
			return fmt.Errorf("writing the atlas %s: %w", f.path, err)
		}
	}
	return nil
}

// JSON writes the atlas as indented JSON, named as schema.Atlas.
func (a *Atlas) JSON(w io.Writer) error {
	return untrusted.JSON(w, schema.Named(schema.Atlas, a))
}

// Markdown writes the atlas for people: per client, what was swept, the
// change points with the exact first version of each, and a timeline of
// segments whose every value links to the run it was read from. links
// prefixes evidence paths ("" leaves them relative to the sweep's output).
func (a *Atlas) Markdown(w io.Writer, links string) error {
	var b strings.Builder
	b.WriteString("# Atlas\n\n")
	if a.Command != "" {
		fmt.Fprintf(&b, "Made on %s by `%s`", a.Date, a.Command)
		if a.Shard != "" {
			fmt.Fprintf(&b, " (shard %s)", a.Shard)
		}
		b.WriteString(", with")
	} else {
		b.WriteString("Merged from the sweeps named under each client, all with")
	}
	fmt.Fprintf(&b, " the matrix %s. Properties: %s.\n", cell(a.Matrix), cells(a.Properties, ", "))
	if a.Partial {
		b.WriteString("\n**Partial:** the sweep was stopped before it finished. A change between two versions run that are not neighbours is not narrowed yet (shown as \"between\"); run the same command again to resume.\n\n")
	}
	b.WriteString("Every value is read from the recorded evidence of an offline run (the model API is instrlab's fake); versions between two versions run with the same values are taken to share them.\n")
	for _, t := range a.Timelines {
		fmt.Fprintf(&b, "\n## %s\n\n", cell(t.Client))
		if a.Command == "" {
			fmt.Fprintf(&b, "Swept on %s by `%s`", t.Sweep.Date, t.Sweep.Command)
			if t.Sweep.Partial {
				b.WriteString(", **stopped before it finished** (changes not yet narrowed are shown as \"between\"; the same command resumes it)")
			}
			b.WriteString(".\n\n")
		}
		fmt.Fprintf(&b, "%s selected (`%s`: %s to %s%s); %s run, %d of them could not run; %s.\n",
			table.Plural(len(t.Versions), "version"), t.Selector, first(t.Versions), last(t.Versions), t.releasedSpan(), table.Plural(t.Ran, "version"), t.CouldNotRun, table.Plural(len(t.Changes), "change point"))
		if len(t.Changes) > 0 {
			released, releasedSep := "", ""
			if len(t.Released) > 0 {
				released, releasedSep = " released |", "---|"
			}
			b.WriteString("\n### Changes\n\n| first version |" + released + " before | what changed | confirmed |\n|---|" + releasedSep + "---|---|---|\n")
			for _, c := range t.Changes {
				first := "**" + cell(c.First) + "**"
				if !c.Exact {
					first = "between " + cell(c.Before) + " and " + cell(c.First)
				}
				var what []string
				for _, pc := range c.Props {
					what = append(what, cell(pc.String()))
				}
				conf := "not confirmed"
				switch {
				case c.Confirmed:
					conf = "yes, both neighbours run twice"
				case c.Flaky:
					conf = "no: " + cell(c.Note)
				}
				if !c.Exact && c.Note != "" && !c.Flaky {
					conf += "; " + cell(c.Note)
				}
				if len(t.Released) > 0 {
					first += " | " + t.ReleaseDate(c.First)
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", first, cell(c.Before), strings.Join(what, "<br>"), conf)
			}
		}
		if len(t.Segments) > 0 {
			b.WriteString("\n### Timeline\n\n| versions | " + cells(a.Properties, " | ") + " |\n|---|" + strings.Repeat("---|", len(a.Properties)) + "\n")
			for _, s := range t.Segments {
				span := cell(s.From)
				if s.To != s.From {
					span = cell(s.From) + " – " + cell(s.To)
				}
				row := []string{fmt.Sprintf("%s (%s run)", span, fmt.Sprint(len(s.Probed)))}
				for _, name := range a.Properties {
					v, ev := "not measured", ""
					for _, p := range s.Props {
						if p.Name == name {
							v, ev = p.Value, p.Evidence
						}
					}
					if ev != "" {
						v = untrusted.MarkdownLink(v, links+ev)
					} else {
						v = cell(v)
					}
					row = append(row, v)
				}
				fmt.Fprintf(&b, "| %s |\n", strings.Join(row, " | "))
			}
		}
		var cnr []string
		for _, p := range t.Points {
			if p.Attempt <= 1 && !p.Ran() {
				cnr = append(cnr, fmt.Sprintf("- %s: could not run: %s", cell(p.Version), cell(p.CouldNotRun)))
			}
		}
		if len(cnr) > 0 {
			b.WriteString("\n### Could not run\n\n" + strings.Join(cnr, "\n") + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell makes a value safe inside a markdown table cell: the client's own
// text (a wrapper, a marker) is untrusted (see untrusted.Markdown).
func cell(s string) string { return untrusted.Markdown(s) }

// cells is each of ss as a cell, joined by sep.
func cells(ss []string, sep string) string {
	var out []string
	for _, s := range ss {
		out = append(out, cell(s))
	}
	return strings.Join(out, sep)
}
