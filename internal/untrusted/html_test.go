package untrusted

import (
	"html"
	"html/template"
	"strings"
	"testing"
)

var cellTemplate = template.Must(template.New("").Parse(`<td title="{{.}}">{{.}}</td>`))

// FuzzHTML puts HTMLLine(s) in an attribute and a text node of an
// html/template, and checks that no markup came from s and that a browser
// shows EscapeLine(s): the text made visible, nothing hidden or reordered.
func FuzzHTML(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		shown(t, "HTML", s, HTML(s), true)
		text := HTMLLine(s)
		shown(t, "HTMLLine", s, text, false)
		var b strings.Builder
		if err := cellTemplate.Execute(&b, text); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		attr, body, ok := strings.Cut(strings.TrimPrefix(page, `<td title="`), `">`)
		body, ok2 := strings.CutSuffix(body, "</td>")
		if !strings.HasPrefix(page, `<td title="`) || !ok || !ok2 || strings.ContainsAny(attr+body, `<>"`) {
			t.Fatalf("HTMLLine(%q) in a template: %q", s, page)
		}
		if html.UnescapeString(body) != EscapeLine(s) || html.UnescapeString(attr) != EscapeLine(s) {
			t.Fatalf("HTMLLine(%q) shows as %q and %q, want %q", s, html.UnescapeString(attr), html.UnescapeString(body), EscapeLine(s))
		}
	})
}
