package derive

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/profiles"
)

// fromExcerpt derives the profile of id from its committed excerpt.
func fromExcerpt(t *testing.T, id string) profiles.Profile {
	t.Helper()
	x, err := ReadExcerpt(t.Context(), filepath.Join("..", "data", "evidence", id+".json"))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Profiles(x.Results, Options{Ref: "test", Evidence: x})
	if err != nil || len(ps) != 1 {
		t.Fatalf("%d profiles, %v", len(ps), err)
	}
	return ps[0]
}

// TestVariants reads the ways the real runs were made: Copilot CLI uses
// the text only with its flag, Codex places it by model.
func TestVariants(t *testing.T) {
	cp := fromExcerpt(t, "copilot@1.0.102")
	if !cp.Render.Unused || cp.Render.Placement != "nowhere: no model request held the text" {
		t.Errorf("Copilot CLI by default: render %+v, want unused", cp.Render)
	}
	i := slices.IndexFunc(cp.Variants, func(v profiles.Variant) bool { return len(v.Flags) > 0 })
	if i < 0 || slices.ContainsFunc(cp.Variants, func(v profiles.Variant) bool { return len(v.Flags) == 0 && !v.ByModel }) {
		t.Fatalf("Copilot CLI variants %+v, want the flag's and models'", cp.Variants)
	}
	v := cp.Variants[i]
	if v.When != "--allow-all-mcp-server-instructions" || v.Render.Unused || v.Instructions.AtLeast != 20000 ||
		v.Render.Server != "<{name}-*>\n{text}\n</{name}-*>" || v.Startup.Waited == nil || !*v.Startup.Waited {
		t.Errorf("Copilot CLI with the flag: %+v", v)
	}

	cx := fromExcerpt(t, "codex@0.169.0")
	if cx.Model != "gpt-6.1-sol" || cx.Instructions.Cap != 247 || cx.Instructions.Marker != "..." || cx.Render.Server != "- mcp__{name}: {text}" {
		t.Errorf("Codex CLI by default: model %q, cap %d, marker %q, server %q", cx.Model, cx.Instructions.Cap, cx.Instructions.Marker, cx.Render.Server)
	}
	when := map[string]profiles.Variant{}
	for _, v := range cx.Variants {
		when[v.When] = v
	}
	if v := when["model gpt-5.5"]; v.Instructions.Cap != 247 || !strings.Contains(v.Render.Placement, "input[1]") {
		t.Errorf("Codex CLI with gpt-5.5: %+v", v)
	}
	if v := when["model local-model"]; v.Instructions.Cap != 0 || v.Instructions.AtLeast != 6000 || !strings.HasPrefix(v.Render.Placement, "a tool definition") {
		t.Errorf("Codex CLI with a model outside its catalogue: %+v", v)
	}

	if g := fromExcerpt(t, "gemini@0.61.0"); g.Model != "gemini-3.8-flash" {
		t.Errorf("Gemini CLI's model %q, want the one in its request path", g.Model)
	}
	if c := fromExcerpt(t, "cline@3.0.65"); !c.Render.Unused || c.Startup.Waited == nil || *c.Startup.Waited {
		t.Errorf("Cline CLI: render %+v, startup %+v; want unused and a slow server not waited for", c.Render, c.Startup)
	}
}

// TestExcerptBadInput: an excerpt that lacks what derive reads, or is not
// JSON, and an annex that would state a measured value, are errors.
func TestExcerptBadInput(t *testing.T) {
	x, err := ReadExcerpt(t.Context(), filepath.Join("..", "data", "evidence", "gemini@0.61.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	x.Segments = map[string]string{}
	if _, err := Profiles(x.Results, Options{Evidence: x}); err == nil || !strings.Contains(err.Error(), "evidence excerpt: no segment") {
		t.Errorf("derive without segments: %v", err)
	}
	x.Rows = nil
	if _, err := Profiles(x.Results, Options{Evidence: x}); err == nil || !strings.Contains(err.Error(), "no row for") {
		t.Errorf("derive without rows: %v", err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"results": [`), 0o644)
	if _, err := ReadExcerpt(t.Context(), bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("malformed excerpt: %v", err)
	}
	if _, err := ReadExcerpt(t.Context(), filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing excerpt read without error")
	}
	os.WriteFile(bad, []byte(`{"evidence": [{"kind": "docs", "ref": "x", "says": "y"}], "bogus": 1}`), 0o644)
	if _, err := ReadAnnex(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("annex with an unknown field: %v", err)
	}
	a := &Annex{Evidence: []profiles.Evidence{{Kind: "docs", Ref: "x", Says: "y"}}, ToolDescriptions: &profiles.Limit{Cap: 10, Unit: "codepoint", Measured: true}}
	p := fromExcerpt(t, "gemini@0.61.0")
	if err := a.Apply(&p); err == nil || !strings.Contains(err.Error(), "not measured") {
		t.Errorf("an annex marking a cap measured: %v", err)
	}
}
