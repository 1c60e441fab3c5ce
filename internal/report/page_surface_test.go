package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/jsonl"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/internal/testutil"
	"github.com/instrlab/instrlab/lab"
)

// surfaceRoot is the pretend evidence directory the surface results are
// under, so that cells link to their runs.
const surfaceRoot = "/evidence"

// surfaceFixtures are trimmed real runs of the surface matrix
// (internal/surface/testdata), as client, row and fixture.
var surfaceFixtures = [][3]string{
	{"claude-code@2.1.328", "surface-results", "claude-code-2.1.328-results"},
	{"claude-code@2.1.328", "surface-names", "claude-code-2.1.328-names"},
	{"gemini@0.61.0", "surface-results", "gemini-0.61.0-results"},
	{"copilot@1.0.102", "surface-results", "copilot-1.0.102-results"},
	{"cline@3.0.65", "surface-results", "cline-3.0.65-results"},
	{"claude-code@2.1.332", "surface-prompts", "claude-code-2.1.332-prompts"},
	{"cline@3.0.65", "surface-prompts", "cline-3.0.65-prompts"},
	{"cline@3.0.65", "surface-meta", "cline-3.0.65-meta"},
	{"claude-code@2.1.332", "surface-resources", "claude-code-2.1.332-resources"},
}

// surfaceResults are results whose surface facts the surface analysis
// makes from its fixtures; edit, when set, changes the requests first.
func surfaceResults(t *testing.T, edit func(client, text string) string) []analyze.Result {
	t.Helper()
	var out []analyze.Result
	for _, fx := range surfaceFixtures {
		dir := filepath.Join("..", "surface", "testdata", fx[2])
		raw, err := os.ReadFile(filepath.Join(dir, "requests.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			raw = []byte(edit(fx[0], string(raw)))
		}
		reqs, w1 := jsonl.Decode[fakeapi.Request](bytes.NewReader(raw), "requests.jsonl")
		logRaw, err := os.ReadFile(filepath.Join(dir, "lab.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		log, w2 := jsonl.Decode[lab.Entry](bytes.NewReader(logRaw), "lab.jsonl")
		rs, w3 := surface.Contexts(reqs)
		if w := append(append(w1, w2...), w3...); len(w) > 0 {
			t.Fatalf("%s: %v", fx[2], w)
		}
		out = append(out, analyze.Result{Client: fx[0], Row: fx[1], Repeat: 1, Status: analyze.StatusOK,
			Dir: filepath.Join(surfaceRoot, fx[0], fx[1], "1"),
			Surface: &analyze.SurfaceFacts{Calls: surface.Calls(rs, log), Tools: surface.Tools(rs, log, "lab"),
				Texts: surface.Texts(rs, log, surface.Tools(rs, log, "lab")), Unasked: surface.Unasked(log), Reads: surface.Reads(rs, log)}})
	}
	return out
}

func surfaceSection(t *testing.T, results []analyze.Result) string {
	t.Helper()
	s, err := New(matrix.Surface(), results, surfaceRoot).surfaceSection()
	if err != nil {
		t.Fatal(err)
	}
	return string(s.Body)
}

// cellOf is the fate of the cell of row label in the grid id for client.
func cellOf(t *testing.T, results []analyze.Result, id, label, client string) string {
	t.Helper()
	for _, g := range New(matrix.Surface(), results, surfaceRoot).g.surfaceGrids() {
		if g.ID != id {
			continue
		}
		for _, r := range g.Rows {
			if r.Label != label {
				continue
			}
			for i, c := range g.Clients {
				if c == client {
					return r.Cells[i].Fate + ": " + r.Cells[i].Detail
				}
			}
		}
	}
	return "absent"
}

// TestSurfaceGrid: the page's surface section (golden file) has a grid per
// surface, client by item, each cell kept, rewritten, dropped or not
// measured as the runs show, linked to the run's requests; a client that
// did not run a row is not measured there; a part taken out of the
// request that follows the call turns its cell to dropped.
func TestSurfaceGrid(t *testing.T) {
	results := surfaceResults(t, nil)
	body := surfaceSection(t, results)
	testutil.Golden(t, filepath.Join("testdata", "surface.html"), []byte(body), *update)
	for _, want := range []string{`id="surface-results"`, `id="surface-schemas"`, `id="surface-names"`,
		`href="claude-code@2.1.328/surface-results/1/api/requests.jsonl"`, `href="gemini@0.61.0/surface-results/1/api/requests.jsonl"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the section lacks %q", want)
		}
	}
	type cell struct{ id, label, client, want string }
	cells := []cell{
		{"surface-results", "result_both · content[0] text", "claude-code@2.1.328", "dropped: "},
		{"surface-results", "result_both · structuredContent", "claude-code@2.1.328", "kept: json"},
		{"surface-results", "result_both · structuredContent", "gemini@0.61.0", "dropped: "},
		{"surface-results", "result_both · structuredContent", "copilot@1.0.102", "rewritten: as text"},
		{"surface-results", "result_text · content[0] text", "cline@3.0.65", "rewritten: as json"},
		{"surface-results", "result_image · content[0] image", "copilot@1.0.102", "dropped: "},
		{"surface-results", "result_image · content[0] image", "gemini@0.61.0", "rewritten: in user-turn"},
		{"surface-results", "result_meta · _meta", "cline@3.0.65", "kept: json"},
		{"surface-names", "name.dotted.case", "claude-code@2.1.328", "not measured: no request defines it"},
		{"surface-names", "name-hyphen-case", "claude-code@2.1.328", "kept: mcp__lab__name-hyphen-case"},
		{"surface-names", "name-hyphen-case", "gemini@0.61.0", "not measured: "},
		{"surface-schemas", "result_text · type", "gemini@0.61.0", "kept: "},
		{"surface-texts", "prompt lab_prompt · title", "claude-code@2.1.332", "dropped: "},
		{"surface-texts", "prompt lab_prompt · title", "cline@3.0.65", "dropped: the client never asked for prompts/list"},
		{"surface-texts", "resource lab_readme · description", "cline@3.0.65", "dropped: the client never asked for resources/list"},
		{"surface-texts", "tool meta_title · title", "cline@3.0.65", "dropped: "},
		{"surface-texts", "tool meta_title · title", "claude-code@2.1.332", "not measured: "},
		{"surface-texts", "read lab://surface/readme · contents[0] text", "claude-code@2.1.332", "kept: in tool-result of request 3"},
		{"surface-texts", "read lab://surface/readme · contents[0] text", "cline@3.0.65", "not measured: "},
	}
	var got, want []string
	for _, c := range cells {
		want = append(want, c.want)
		got = append(got, cellOf(t, results, c.id, c.label, c.client))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cells mismatch (-want +got):\n%s", diff)
	}
	text := "result_text content text codeword: " + lab.SurfaceCodeword("", "result_text", "content text") + "."
	removed := surfaceResults(t, func(client, s string) string {
		if client != "gemini@0.61.0" {
			return s
		}
		if !strings.Contains(s, text) {
			t.Fatalf("the fixture lacks %q", text)
		}
		return strings.ReplaceAll(s, text, "something else")
	})
	if got := cellOf(t, removed, "surface-results", "result_text · content[0] text", "gemini@0.61.0"); got != "dropped: " {
		t.Errorf("with result_text's text removed, gemini's cell is %q, want dropped", got)
	}
	if got := cellOf(t, removed, "surface-results", "result_text · content[0] text", "claude-code@2.1.328"); got != "kept: text" {
		t.Errorf("with gemini's text removed, claude code's cell is %q, want kept", got)
	}
	title := "lab_prompt title codeword: " + lab.SurfaceCodeword("", labvocab.SurfacePrompt, "title") + "."
	added := surfaceResults(t, func(client, s string) string {
		const at = `"messages": [{"role": "user", "content": [{"type": "text", "text": "`
		if client != "claude-code@2.1.332" {
			return s
		}
		if !strings.Contains(s, at) {
			t.Fatalf("the fixture lacks %q", at)
		}
		return strings.Replace(s, at, at+title+" ", 1)
	})
	if got := cellOf(t, added, "surface-texts", "prompt lab_prompt · title", "claude-code@2.1.332"); got != "kept: in user-turn" {
		t.Errorf("with the prompt's title in a message, claude code's cell is %q, want kept in user-turn", got)
	}
}

// TestSurfaceSectionOnlyWithFacts: the page of a run without surface
// facts has no surface section and no surface style.
func TestSurfaceSectionOnlyWithFacts(t *testing.T) {
	page := string(fixturePage(t))
	if strings.Contains(page, `id="surface"`) || strings.Contains(page, "table.surface") {
		t.Error("a page without surface facts has the surface section or its style")
	}
}

// TestSurfacePageInChromium opens a page of surface results in headless
// Chromium: nothing logs an error and the document does not scroll
// sideways at 1280 px (the grids scroll in their own box). It runs with
// INSTRLAB_E2E=1, as TestPageInChromium.
func TestSurfacePageInChromium(t *testing.T) {
	bin := testutil.ChromiumPath(t)
	out := t.TempDir()
	var page bytes.Buffer
	if err := New(matrix.Surface(), surfaceResults(t, nil), "").HTML(&page); err != nil {
		t.Fatal(err)
	}
	probePath := filepath.Join(out, "surface.probe.html")
	if err := os.WriteFile(probePath, []byte(strings.Replace(page.String(), "<head>", "<head>"+probeScript, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Errors                     []string
		InnerWidth, DocScrollWidth int
	}
	dom := readProbe(t, bin, probePath, &got)
	if len(got.Errors) > 0 {
		t.Errorf("errors in the page: %q", got.Errors)
	}
	if got.DocScrollWidth > got.InnerWidth {
		t.Errorf("the page scrolls sideways at %d px: document %d", got.InnerWidth, got.DocScrollWidth)
	}
	if !strings.Contains(dom, `id="surface-results"`) || !strings.Contains(dom, `class="f-dropped"`) {
		t.Error("the page in Chromium has no surface grid")
	}
}

// TestPartCellSameText: a part whose text is another part's too (a
// content text that is the structuredContent serialized) says so in its
// cell, kept or rewritten, since where it arrived cannot tell the two
// apart.
func TestPartCellSameText(t *testing.T) {
	call := surface.CallFacts{Tool: "get-structured-content", Reached: true, Following: 3}
	kept := partCell(call, surface.Found{Part: "structuredContent", SentForm: "json", Form: "json", Reached: true, Full: true, InResult: true, SameAs: "content[0] text"}, "")
	moved := partCell(call, surface.Found{Part: "content[0] text", SentForm: "text", Form: "json", Reached: true, Full: true, InResult: true, SameAs: "structuredContent"}, "")
	for _, c := range []struct {
		cell       surfaceCell
		fate, want string
	}{
		{kept, fateKept, "json; the same text as content[0] text: which the client gave cannot be told"},
		{moved, fateRewritten, "as json; the same text as structuredContent: which the client gave cannot be told"},
	} {
		if c.cell.Fate != c.fate || c.cell.Detail != c.want {
			t.Errorf("cell %+v, want fate %s and %q", c.cell, c.fate, c.want)
		}
	}
}
