package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/testutil"
)

func fixturePage(t *testing.T) []byte {
	t.Helper()
	_, results, _, err := Load(t.Context(), clients.New, fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := New(matrix.Seed(), results, fixtureDir).HTML(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPageGolden(t *testing.T) {
	page := fixturePage(t)
	testutil.Golden(t, filepath.Join("testdata", "fixtures.html"), page, *update)
	for _, want := range []string{
		// the summary's bar of a cut text: kept width, the cap line, the text alternative
		`<title>claude-code@2.1.328: 4,096 of 5,000 characters kept, 904 lost; cap 4,096 characters</title>`,
		`<line x1="262.1" x2="262.1" y1="1" y2="25" class="cap"/>`,
		// the cut drawn on the text and the first lost sentence named
		`✂ claude-code@2.1.328 cuts here, after 4,096 characters`,
		`First lost sentence: “Use lab_ping only`,
		// the late row: request 1 without the text, the initialize reply, request 2 with it
		`request 1: without the text`, `initialize result, with the text`, `request 2: with the text`,
		// the request map marks the server's text
		`◀ server text here`,
		// cells link to evidence
		`href="claude-code@2.1.328/en-5000/1/api/requests.jsonl"`,
		// the full table stays
		`<th class="group" scope="colgroup" colspan="22">claude-code@2.1.285</th>`,
	} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The late row's request 1 comes before the server's reply, request 2 after it.
	late := page[bytes.Index(page, []byte(`id="row-en-1000-late"`)):]
	i1, ir, i2 := bytes.Index(late, []byte("request 1: without the text")), bytes.Index(late, []byte("initialize result, with the text")), bytes.Index(late, []byte("request 2: with the text"))
	if !(i1 >= 0 && i1 < ir && ir < i2) {
		t.Errorf("late row out of order: request 1 at %d, initialize reply at %d, request 2 at %d", i1, ir, i2)
	}
}

func TestPageSelfContained(t *testing.T) {
	if bad := testutil.SelfContained(string(fixturePage(t)), fixtureDir); len(bad) > 0 {
		t.Errorf("the page reaches outside itself: %q", bad)
	}
	// The check itself catches what it looks for.
	for _, s := range []string{`<script src="x.js"></script>`, `<link rel=stylesheet href="a.css">`, `a{background:url(http://x)}`, `@import "f.css";`, `<a href="https://example.com">`, `<a href="//cdn.example">`, `<img src="a.png">`, `<a href="no/such/file.jsonl">`} {
		if len(testutil.SelfContained(s, fixtureDir)) == 0 {
			t.Errorf("selfContained misses %q", s)
		}
	}
}

// TestPageEscapesServerText: text from the evidence reaches the page only
// escaped.
func TestPageEscapesServerText(t *testing.T) {
	_, results, _, err := Load(t.Context(), clients.New, fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	results[0].Observation.ServerStatus = `<script>alert(1)</script>`
	results[0].Warnings = append(results[0].Warnings, `lab.jsonl:1: <img src=x onerror=alert(1)>`)
	var b bytes.Buffer
	if err := New(matrix.Seed(), results, fixtureDir).HTML(&b); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); strings.Contains(s, "<script>") || strings.Contains(s, "<img") || !strings.Contains(s, "&lt;script&gt;") {
		t.Error("server text reached the page unescaped")
	}
}
