package table

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var sample = Table{
	Title:   "T",
	Columns: []Column{{Name: "row"}, {Group: "a@1", Name: "kept"}, {Group: "b@2", Name: "kept"}},
	Rows: [][]Cell{
		{{Text: "one"}, {Text: "1,000", Link: "a/1/api/requests.jsonl"}, {Text: "2,048", Diff: true}},
		{{Text: "two|pipe"}, {Text: "x\x1b[31mred\nline"}, {Text: "<b>"}},
	},
	Notes: []string{"a note"},
}

func TestRenderers(t *testing.T) {
	var md, csv, text, html bytes.Buffer
	for _, r := range []struct {
		f func(*bytes.Buffer, Table) error
		b *bytes.Buffer
	}{
		{func(b *bytes.Buffer, t Table) error { return Markdown(b, t) }, &md},
		{func(b *bytes.Buffer, t Table) error { return CSV(b, t) }, &csv},
		{func(b *bytes.Buffer, t Table) error { return Text(b, t) }, &text},
		{func(b *bytes.Buffer, t Table) error { return HTML(b, t) }, &html},
	} {
		if err := r.f(r.b, sample); err != nil {
			t.Fatal(err)
		}
	}
	wantMD := "### T\n\n| row | a@1: kept | b@2: kept |\n|---|---|---|\n| one | 1,000 | **2,048** |\n| two\\|pipe | x\\\\x1b\\[31mred\\\\nline | \\<b\\> |\n\na note\n\n"
	if diff := cmp.Diff(wantMD, md.String()); diff != "" {
		t.Errorf("Markdown mismatch (-want +got):\n%s", diff)
	}
	wantCSV := "row,a@1: kept,b@2: kept\none,\"1,000\",\"2,048\"\ntwo|pipe,x\\x1b[31mred\\nline,<b>\n"
	if diff := cmp.Diff(wantCSV, csv.String()); diff != "" {
		t.Errorf("CSV mismatch (-want +got):\n%s", diff)
	}
	wantText := "T\n\n" +
		"row       a@1: kept           b@2: kept\n" +
		"one       1,000               2,048*\n" +
		`two|pipe  x\x1b[31mred\nline  <b>` + "\n\n" +
		"* differs from the first client, or needs attention\n\na note\n"
	if diff := cmp.Diff(wantText, text.String()); diff != "" {
		t.Errorf("Text mismatch (-want +got):\n%s", diff)
	}
	for _, want := range []string{`<th class="group" scope="colgroup" colspan="1">a@1</th>`, `<a href="a/1/api/requests.jsonl">1,000</a>`, `<td class="diff">2,048 <span class="mark"`, "&lt;b&gt;", `<th scope="row">two|pipe</th>`, `<td>x\x1b[31mred\nline</td>`} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML lacks %q:\n%s", want, html.String())
		}
	}
	if strings.Contains(html.String(), "<b>") || strings.Contains(html.String(), "\x1b") {
		t.Error("HTML did not escape a cell")
	}
}

func TestNum(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -2048: "-2,048"} {
		if got := Num(n); got != want {
			t.Errorf("Num(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestFormats(t *testing.T) {
	f := Formats{"md", "csv", "json"}
	if got, want := f.String(), "md, csv or json"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := (Formats{"md"}).String(), "md"; got != want {
		t.Errorf("one format: String = %q, want %q", got, want)
	}
	if err := f.Check("csv"); err != nil {
		t.Errorf("Check(csv): %v", err)
	}
	if err := f.Check("yaml"); err == nil || err.Error() != `-format "yaml": want md, csv or json` {
		t.Errorf("Check(yaml) = %v", err)
	}
}
