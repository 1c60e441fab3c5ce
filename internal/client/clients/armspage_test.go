package clients

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/version"
)

// armsPage is the committed page of every client's arms.
const armsPage = "../../../docs/arms.md"

// TestArmsPage holds docs/arms.md to the arms each client's folder
// declares, at its pinned version and at each version a built-in profile
// holds: the page lists them, never a hand-kept copy of them. With
// -update it writes the page.
func TestArmsPage(t *testing.T) {
	ps, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	got, err := writeArmsPage(ps)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(armsPage, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(armsPage)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("docs/arms.md is not what the arms declare (go test ./internal/client/clients -run ArmsPage -update) (-want +got):\n%s", diff)
	}
	// A declared arm shows on the page with what it sets.
	c, err := New("grok@0.0.34")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range client.ArmsOf(c) {
		if !bytes.Contains(got, []byte("| "+a.Name)) || !bytes.Contains(got, []byte(a.How())) {
			t.Errorf("the page lacks grok's arm %s (%s)", a.Name, a.How())
		}
	}
}

// writeArmsPage is the page: per client, its versions newest first, those
// with the same arms under one heading, a table of the arms.
func writeArmsPage(ps []profiles.Profile) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`# Arms: the ways instrlab runs each client

<!-- Generated from the arms each client's folder declares (arms.go): do not edit (go test ./internal/client/clients -run ArmsPage -update). -->

An arm is one setting of a client's switches: environment variables,
settings keys, cached flag values, a model, an approval mode, or the
vendor's own host (the direct arm). ` + "`instrlab run -arms NAME`" + ` runs every row
in that arm, ` + "`-arms all`" + ` in every arm; the default arm sets nothing. Each
client's arms are listed at its pinned version and at each version a
built-in profile holds. "Its code says" is what the client's shipped code
was read to do, not a measurement: what each arm measured is on the
client's [reference page](reference/README.md) ("Other ways to run it")
and in the [findings log](findings.md). How the arms were found:
[clients.md](clients.md).
`)
	names := Names()
	slices.SortStableFunc(names, func(a, b string) int {
		return strings.Compare(strings.ToLower(Display(a)), strings.ToLower(Display(b)))
	})
	for _, name := range names {
		c, err := New(name)
		if err != nil {
			return nil, err
		}
		versions := []string{c.Spec().Version}
		for _, p := range ps {
			if p.Client == name && !slices.Contains(versions, p.Version) {
				versions = append(versions, p.Version)
			}
		}
		slices.SortFunc(versions, func(a, b string) int { return version.Compare(b, a) })
		pinned := c.Spec().Version
		fmt.Fprintf(&b, "\n## %s\n", Display(name))
		var group []string
		var rows [][]table.Cell
		flush := func() error {
			if len(group) == 0 {
				return nil
			}
			fmt.Fprintf(&b, "\n### %s\n\n", strings.Join(group, ", "))
			return table.Markdown(&b, table.Table{Columns: []table.Column{{Name: "arm"}, {Name: "sets"}, {Name: "its code says"}}, Rows: rows})
		}
		for _, v := range versions {
			cv, err := New(name + "@" + v)
			if err != nil {
				return nil, err
			}
			var r [][]table.Cell
			for _, a := range client.ArmsOf(cv) {
				arm := a.Name
				if a.Default && a.Name != client.DefaultArmName {
					arm += " (default)"
				}
				r = append(r, []table.Cell{{Text: arm}, {Text: a.How()}, {Text: orNot(a.Says)}})
			}
			label := v
			if v == pinned {
				label += " (pinned)"
			}
			if len(group) > 0 && slices.EqualFunc(r, rows, slices.Equal) {
				group = append(group, label)
				continue
			}
			if err := flush(); err != nil {
				return nil, err
			}
			group, rows = []string{label}, r
		}
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

func orNot(says string) string {
	if says == "" {
		return "—"
	}
	return says
}
