package surface

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// textFates maps "list item · text" to where it reached the model:
// "missing", "undefined" (a text of a tool no request defined, not found),
// or the kind of segment, with "later" when not in the first main request.
func textFates(ts []TextFact) map[string]string {
	out := map[string]string{}
	for _, t := range ts {
		v := "missing"
		switch {
		case t.Reached && t.First:
			v = string(t.Where)
		case t.Reached:
			v = "later " + string(t.Where)
		case t.Undefined:
			v = "undefined"
		}
		out[t.List+" "+t.Item+" · "+t.Part] = v
	}
	return out
}

// The lab's texts of the prompts group, as its prompts/list and
// resources/list replies carry them (seed "").
var (
	promptTexts = map[string]string{
		"prompts/list lab_prompt · name":                      "missing",
		"prompts/list lab_prompt · title":                     "missing",
		"prompts/list lab_prompt · description":               "missing",
		"prompts/list lab_prompt · argument part description": "missing",
	}
	resourceTexts = map[string]string{
		"resources/list lab_readme · name":        "missing",
		"resources/list lab_readme · uri":         "missing",
		"resources/list lab_readme · title":       "missing",
		"resources/list lab_readme · description": "missing",
	}
)

func merged(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// TestPromptTexts: of the prompts row (runs of 2026-12-03 with instrlab
// run -matrix surface -row surface-prompts), Claude Code 2.1.332 and
// Gemini CLI 0.61.0 list the prompt and the resource (no template) and
// put none of their texts in any request; Cline 3.0.65 never asks for
// either list. A copy of Claude Code's first request with the prompt's
// title and the resource's description put in a message finds those two
// there, and not the names the two texts start with.
func TestPromptTexts(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    map[string]string
		unasked []string
	}{
		{"claude-code-2.1.332-prompts", merged(promptTexts, resourceTexts), []string{ListTemplates}},
		{"gemini-0.61.0-prompts", merged(promptTexts, resourceTexts), []string{ListTemplates}},
		{"cline-3.0.65-prompts", map[string]string{}, []string{ListPrompts, ListResources, ListTemplates}},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			reqs, log := load(t, filepath.Join("testdata", tc.fixture), nil)
			if diff := cmp.Diff(tc.want, textFates(Texts(reqs, log, Tools(reqs, log, "lab")))); diff != "" {
				t.Errorf("texts mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.unasked, Unasked(log)); diff != "" {
				t.Errorf("unasked mismatch (-want +got):\n%s", diff)
			}
		})
	}
	title := "lab_prompt title codeword: " + lab.SurfaceCodeword("", labvocab.SurfacePrompt, "title") + "."
	desc := "lab_readme description codeword: " + lab.SurfaceCodeword("", "lab_readme", "description") + "."
	dir := filepath.Join("testdata", "claude-code-2.1.332-prompts")
	reqs, log := load(t, dir, func(s string) string {
		const at = `"messages": [{"role": "user", "content": [{"type": "text", "text": "`
		if !strings.Contains(s, at) {
			t.Fatalf("the fixture lacks %q", at)
		}
		return strings.Replace(s, at, at+title+" "+desc+" ", 1)
	})
	want := merged(promptTexts, resourceTexts)
	want["prompts/list lab_prompt · title"] = string(fakeapi.KindUserTurn)
	want["resources/list lab_readme · description"] = string(fakeapi.KindUserTurn)
	if diff := cmp.Diff(want, textFates(Texts(reqs, log, Tools(reqs, log, "lab")))); diff != "" {
		t.Errorf("with two texts put in a message, texts mismatch (-want +got):\n%s", diff)
	}
}

// TestMetaTexts: of the meta row, Cline 3.0.65 defines every tool in its
// first request and none of a tool's title, annotations title, _meta
// strings or icon is in it; Claude Code 2.1.332 defers all but
// meta_always_load (which has none of these texts), so the others are not
// measured. A copy of Cline's request whose meta_title description is its
// title finds the title in that tool's definition.
func TestMetaTexts(t *testing.T) {
	metaTexts := map[string]string{
		"tools/list meta_annotations · annotations title":           "missing",
		"tools/list meta_annotations · annotations readOnlyHint":    "missing",
		"tools/list meta_annotations · annotations destructiveHint": "missing",
		"tools/list meta_annotations · annotations idempotentHint":  "missing",
		"tools/list meta_annotations · annotations openWorldHint":   "missing",
		"tools/list meta_always_load · _meta anthropic/alwaysLoad":  "missing",
		"tools/list meta_icon · icon":                               "missing",
		"tools/list meta_lab_key · _meta lab/note":                  "missing",
		"tools/list meta_search_hint · _meta anthropic/searchHint":  "missing",
		"tools/list meta_title · title":                             "missing",
	}
	reqs, log := load(t, filepath.Join("testdata", "cline-3.0.65-meta"), nil)
	if diff := cmp.Diff(metaTexts, textFates(Texts(reqs, log, Tools(reqs, log, "lab")))); diff != "" {
		t.Errorf("cline: texts mismatch (-want +got):\n%s", diff)
	}
	undefined := map[string]string{}
	for k := range metaTexts {
		undefined[k] = "undefined"
	}
	// Claude Code sends meta_always_load (its _meta asks it to), and
	// defers the rest.
	undefined["tools/list meta_always_load · _meta anthropic/alwaysLoad"] = "missing"
	reqs, log = load(t, filepath.Join("testdata", "claude-code-2.1.332-meta"), nil)
	if diff := cmp.Diff(undefined, textFates(Texts(reqs, log, Tools(reqs, log, "lab")))); diff != "" {
		t.Errorf("claude code: texts mismatch (-want +got):\n%s", diff)
	}
	desc := "It has a title. Description codeword: " + lab.SurfaceCodeword("", "meta_title", "description") + "."
	title := "meta_title title codeword: " + lab.SurfaceCodeword("", "meta_title", "title") + "."
	reqs, log = load(t, filepath.Join("testdata", "cline-3.0.65-meta"), func(s string) string {
		if !strings.Contains(s, desc) {
			t.Fatalf("the fixture lacks %q", desc)
		}
		return strings.ReplaceAll(s, desc, title)
	})
	metaTexts["tools/list meta_title · title"] = string(fakeapi.KindToolDefinition)
	if diff := cmp.Diff(metaTexts, textFates(Texts(reqs, log, Tools(reqs, log, "lab")))); diff != "" {
		t.Errorf("with meta_title's title as its description, texts mismatch (-want +got):\n%s", diff)
	}
	// A boolean annotation is found by its key: a client that wrote
	// "readOnlyHint: true" into the tool's description passed it on.
	annDesc := "It has every annotation. Description codeword: " + lab.SurfaceCodeword("", "meta_annotations", "description") + "."
	reqs, log = load(t, filepath.Join("testdata", "cline-3.0.65-meta"), func(s string) string {
		if !strings.Contains(s, annDesc) {
			t.Fatalf("the fixture lacks %q", annDesc)
		}
		return strings.ReplaceAll(s, annDesc, annDesc+" (readOnlyHint: true)")
	})
	metaTexts["tools/list meta_title · title"] = "missing"
	metaTexts["tools/list meta_annotations · annotations readOnlyHint"] = string(fakeapi.KindToolDefinition)
	if diff := cmp.Diff(metaTexts, textFates(Texts(reqs, log, Tools(reqs, log, "lab")))); diff != "" {
		t.Errorf("with readOnlyHint in meta_annotations' description, texts mismatch (-want +got):\n%s", diff)
	}
}

// TestLocateTrimmedResult: a result part that ends with white space the
// client removed (a text ending in a line break, as many servers' are)
// is whole, its trimmed characters counted apart, not cut one short; a
// part missing more than white space is cut.
func TestLocateTrimmedResult(t *testing.T) {
	text := "Entries: a.txt, b.txt, notes.md, todo.txt, zebra.txt"
	p := Part{Name: "content[0] text", Form: FormText, Needle: text + "\n\n", Sent: len(text) + 2}
	ctx := fakeapi.Context{{Kind: fakeapi.KindToolResult, Call: "c1", Text: text}}
	if f := Locate(ctx, "c1", p); !f.Full || f.Trimmed != 2 || f.Kept != len(text) {
		t.Errorf("trimmed: %+v, want whole, 2 trimmed", f)
	}
	ctx[0].Text = text[:45] + "…"
	if f := Locate(ctx, "c1", p); f.Full || f.Trimmed != 0 || f.Kept != 45 {
		t.Errorf("cut: %+v, want 45 kept, not whole", f)
	}
}
