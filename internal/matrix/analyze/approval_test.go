package analyze

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestApprovalFates: Claude Code 2.1.332 on the surface-approval row
// (the meta group's seven tools called in one turn; testdata runs,
// 2026-12-06) in three approval modes. Pre-approved (--allowed-tools
// mcp__lab), every call reaches the server and its result the model. In
// -p with nothing allowed, none reaches the server and the model is told
// each was not granted. In plan mode none does either: the read-only tool
// (meta_annotations) goes to auto mode's safety check, which does not run
// offline, the others are refused outright. A refused call is read as
// refused, never as a call not made.
func TestApprovalFates(t *testing.T) {
	dir := filepath.Join("testdata", "surfaceruns", "claude-code@2.1.332", "surface-approval")
	for _, tc := range []struct {
		mode string
		fate string
		told func(tool string) string // how the model's result begins, "" for a result
	}{
		{"pre-approved", surface.FateRan, func(string) string { return "" }},
		{"approval-default", surface.FateRefused, func(tool string) string {
			return "Claude requested permissions to use mcp__lab__" + tool + ", but you haven't granted it yet."
		}},
		{"approval-plan", surface.FateRefused, func(tool string) string {
			if tool == "meta_annotations" {
				return "Auto mode is unavailable: its safety check does not run for this session"
			}
			return "Cannot call mcp__lab__" + tool + " while in plan mode."
		}},
	} {
		res, err := Run(filepath.Join(dir, tc.mode), clients.New)
		if err != nil {
			t.Fatal(err)
		}
		if res.Surface == nil || len(res.Surface.Calls) != 7 || len(res.Surface.NotCalled) != 0 {
			t.Fatalf("%s: surface %+v, want 7 calls made", tc.mode, res.Surface)
		}
		for _, c := range res.Surface.Calls {
			if got := c.Fate(); got != tc.fate {
				t.Errorf("%s: %s: fate %q, want %q (%+v)", tc.mode, c.Tool, got, tc.fate, c)
			}
			if want := tc.told(c.Tool); !strings.HasPrefix(c.Instead, want) || (want == "") != (c.Instead == "") {
				t.Errorf("%s: %s: the model got %q instead, want it to begin %q", tc.mode, c.Tool, c.Instead, want)
			}
		}
	}
}

// TestApprovalNoResult: the refused run with its last request removed
// (the one carrying the refusals): the calls were made, none reached the
// server, and no result reached the model; that reads as no result, not
// as refused nor as ran.
func TestApprovalNoResult(t *testing.T) {
	src := filepath.Join("testdata", "surfaceruns", "claude-code@2.1.332", "surface-approval", "approval-default")
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	reqs := filepath.Join(dst, "api", "requests.jsonl")
	b, err := os.ReadFile(reqs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d requests, want the refusals' request after others", len(lines))
	}
	if err := os.WriteFile(reqs, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(dst, clients.New)
	if err != nil {
		t.Fatal(err)
	}
	if res.Surface == nil || len(res.Surface.Calls) != 7 {
		t.Fatalf("surface %+v, want the 7 calls", res.Surface)
	}
	for _, c := range res.Surface.Calls {
		if c.Fate() != surface.FateNoResult || c.Reached || c.Instead != "" {
			t.Errorf("%s: %+v, want no result: not reached, nothing instead", c.Tool, c)
		}
	}
}

// TestApprovalOtherClients: the surface-approval row in the approval arms
// of six more clients (testdata runs, 2026-12-06), each read as what it
// did, never as a call not made where one was: Codex CLI 0.171.0
// (approval_policy never, no tool approved) and GitHub Copilot CLI
// 1.0.102 (no --allow-all-tools) run the read-only tool and refuse the
// others; Qwen Code 0.24.4 refuses every call, in its default mode and in
// plan mode, the read-only tool too; Gemini CLI 0.61.0 offers none of an
// untrusted server's tools, so none is called; Droid 0.225.2, and Kilo
// Code CLI 7.7.9 in plan mode, end the run with no result; Continue CLI
// 1.5.47 in plan mode runs them all.
func TestApprovalOtherClients(t *testing.T) {
	dir := filepath.Join("testdata", "surfaceruns")
	for _, tc := range []struct {
		run     string
		fate    func(tool string) string
		told    string // how a refusal begins, after a prefix the client adds
		offered bool
	}{
		{"codex@0.171.0/surface-approval/approval-default", func(tool string) string {
			if tool == "meta_annotations" {
				return surface.FateRan
			}
			return surface.FateRefused
		}, "MCP tool call requires approval, but approval policy is never", true},
		{"qwen@0.24.4/surface-approval/approval-default", func(string) string { return surface.FateRefused },
			"Qwen Code requires permission to use", true},
		{"qwen@0.24.4/surface-approval/approval-plan", func(string) string { return surface.FateRefused },
			"Tool blocked by plan mode", true},
		{"gemini@0.61.0/surface-approval/approval-default", nil, "", false},
		{"copilot@1.0.102/surface-approval/approval-default", func(tool string) string {
			if tool == "meta_annotations" {
				return surface.FateRan
			}
			return surface.FateRefused
		}, "Permission denied because no interactive user response was available", true},
		// Droid ends its exec at the first call it may not make: no
		// result reaches the model, and the run fails.
		{"droid@0.225.2/surface-approval/approval-default", func(string) string { return surface.FateNoResult }, "", true},
		// Kilo Code CLI's plan agent asks, and the ask rejected headless
		// ends the run.
		{"kilo@7.7.9/surface-approval/approval-plan", func(string) string { return surface.FateNoResult }, "", true},
		// Continue CLI's plan mode (--readonly) runs every MCP tool.
		{"continue@1.5.47/surface-approval/approval-plan", func(string) string { return surface.FateRan }, "", true},
		// Cline CLI with auto-approval off refuses every call and the run
		// goes on; its plan mode runs every MCP tool.
		{"cline@3.0.65/surface-approval/approval-default", func(string) string { return surface.FateRefused },
			`requires approval in a TTY session`, true},
		{"cline@3.0.65/surface-approval/approval-plan", func(string) string { return surface.FateRan }, "", true},
		// The Claude Agent SDK with no allowedTools refuses as its Claude
		// Code does.
		{"claude-agent-sdk@0.3.337/surface-approval/approval-default", func(string) string { return surface.FateRefused },
			"Claude requested permissions to use", true},
	} {
		res, err := Run(filepath.Join(dir, tc.run), clients.New)
		if err != nil {
			t.Fatal(err)
		}
		if res.Surface == nil {
			t.Fatalf("%s: no surface", tc.run)
		}
		if !tc.offered {
			if len(res.Surface.Calls) != 0 || len(res.Surface.NotCalled) != 7 {
				t.Errorf("%s: %d calls, %d not called, want none made", tc.run, len(res.Surface.Calls), len(res.Surface.NotCalled))
			}
			for _, m := range res.Surface.NotCalled {
				if m.Why != surface.MissedNotOffered {
					t.Errorf("%s: %s not called because %q, want %q", tc.run, m.Tool, m.Why, surface.MissedNotOffered)
				}
			}
			continue
		}
		if len(res.Surface.Calls) != 7 || len(res.Surface.NotCalled) != 0 {
			t.Fatalf("%s: %d calls, %v not called, want the 7 made", tc.run, len(res.Surface.Calls), res.Surface.NotCalled)
		}
		for _, c := range res.Surface.Calls {
			want := tc.fate(c.Tool)
			told := tc.told != "" && strings.Contains(c.Instead, tc.told)
			if c.Fate() != want || (want == surface.FateRefused) != told {
				t.Errorf("%s: %s: %s, the model got %q instead; want %s", tc.run, c.Tool, c.Fate(), c.Instead, want)
			}
		}
	}
}

// TestModelDecides: the same row (en-1000) on Claude Code 2.1.332 under
// two models (testdata runs of arms model-haiku and model-claude-3-7,
// 2026-12-06). With Haiku 5.5 the instructions are a role "system"
// message and the server's tools are named only (deferred behind
// ToolSearch); with claude-3-7-sonnet, a model its code lists as without
// tool search, they are in the first user turn and every tool is defined
// whole. Each run records the arm's model, and the requests name it.
func TestModelDecides(t *testing.T) {
	dir := filepath.Join("testdata", "modelruns", "claude-code@2.1.332")
	for _, tc := range []struct {
		arm, model string
		kind       fakeapi.Kind
		defined    bool // the server's tools defined in the first request
	}{
		{"model-haiku", "claude-haiku-5-5", fakeapi.KindSystemMessage, false},
		{"model-claude-3-7", "claude-3-7-sonnet-20250219", fakeapi.KindUserTurn, true},
	} {
		res, err := Run(filepath.Join(dir, tc.arm, "en-1000", "1"), clients.New)
		if err != nil {
			t.Fatal(err)
		}
		if res.Arm.Name != tc.arm || res.Arm.Model != tc.model || res.Observation.Model != tc.model {
			t.Errorf("%s: arm %+v, the client says model %q; want %s", tc.arm, res.Arm, res.Observation.Model, tc.model)
		}
		b := res.First.Best()
		if b == nil || !b.Full || b.Kind != tc.kind {
			t.Errorf("%s: instructions at %+v, want whole in a %s", tc.arm, b, tc.kind)
		}
		var defined []string
		for _, name := range res.First.Tools {
			if strings.HasPrefix(name, "mcp__lab__") {
				defined = append(defined, name)
			}
		}
		if (len(defined) == 3) != tc.defined {
			t.Errorf("%s: the first request defines %v of the server's tools, want all 3: %v", tc.arm, defined, tc.defined)
		}
	}
}

// TestModelDecidesNames: Gemini CLI 0.61.0 offers the server's tool
// write_todos (as mcp_lab_write_todos) under its default model, and the
// call runs; under gemini-2.5-pro it never offers it, with its own tools
// the same in both: the analysis reads each run under the model its arm
// names.
func TestModelDecidesNames(t *testing.T) {
	dir := filepath.Join("testdata", "modelruns", "gemini@0.61.0")
	for _, tc := range []struct {
		arm, model string
		offered    bool
	}{
		{"default", "gemini-3.8-flash", true},
		{"model-gemini-2-5-pro", "gemini-2.5-pro", false},
	} {
		res, err := Run(filepath.Join(dir, tc.arm, "surface-reserved", "1"), clients.New)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Observation.Model, tc.model) || res.Surface == nil {
			t.Fatalf("%s: the client says model %q; want %s, and a surface", tc.arm, res.Observation.Model, tc.model)
		}
		called := slices.ContainsFunc(res.Surface.Calls, func(c surface.CallFacts) bool {
			return c.Tool == "write_todos" && c.Name == "mcp_lab_write_todos" && c.Fate() == surface.FateRan
		})
		missed := slices.ContainsFunc(res.Surface.NotCalled, func(m surface.Missed) bool {
			return m.Tool == "write_todos" && m.Why == surface.MissedNotOffered
		})
		if called != tc.offered || missed == tc.offered {
			t.Errorf("%s: write_todos called %v, not offered %v; want offered %v", tc.arm, called, missed, tc.offered)
		}
	}
}

// TestModelDecidesSchemas reads opencode 1.18.33 under its default
// fake-model and under gemini-2.5-pro, whose id its code rewrites every
// tool schema for: the property typed ["string", "null"] reaches the
// model as sent in one, and with its type list dropped for anyOf and
// nullable in the other.
func TestModelDecidesSchemas(t *testing.T) {
	dir := filepath.Join("testdata", "modelruns", "opencode@1.18.33")
	for _, tc := range []struct {
		arm, model          string
		path, keyword, fate string
	}{
		{"default", "fake-model", "", "properties", surface.Kept},
		{"model-gemini-2-5-pro", "gemini-2.5-pro", "/properties/value", "type", surface.Dropped},
	} {
		run := filepath.Join(dir, tc.arm, "surface-schemas", "1")
		res, err := Run(run, clients.New)
		if err != nil {
			t.Fatal(err)
		}
		reqs, _, err := fakeapi.ReadRequests(evidence.RunDir(run).Requests())
		if err != nil || len(reqs) == 0 {
			t.Fatalf("%s: reading its requests: %v (%d)", tc.arm, err, len(reqs))
		}
		var body struct {
			Model string `json:"model"`
		}
		json.Unmarshal(reqs[0].Body, &body)
		if body.Model != tc.model || res.Surface == nil {
			t.Fatalf("%s: the first request names model %q; want %s, and a surface", tc.arm, body.Model, tc.model)
		}
		i := slices.IndexFunc(res.Surface.Tools, func(d surface.ToolDef) bool { return d.Tool == "schema_nullable" })
		if i < 0 {
			t.Fatalf("%s: no definition of schema_nullable", tc.arm)
		}
		kw := res.Surface.Tools[i].Keywords
		j := slices.IndexFunc(kw, func(k surface.KeywordFact) bool { return k.Path == tc.path && k.Keyword == tc.keyword })
		if j < 0 || kw[j].Fate != tc.fate {
			t.Fatalf("%s: want %s at %q %s in %+v", tc.arm, tc.keyword, tc.path, tc.fate, kw)
		}
		nullable := slices.ContainsFunc(kw, func(k surface.KeywordFact) bool { return k.Keyword == "nullable" && k.Fate == surface.Added })
		if nullable != (tc.fate == surface.Dropped) || tc.fate == surface.Dropped && !strings.Contains(kw[j].Became, "anyOf") {
			t.Errorf("%s: nullable added %v, became %s", tc.arm, nullable, kw[j].Became)
		}
	}
}

// TestCallsUnderIDsOfTheClient reads Droid 0.225.2 under
// gemini-3.1-pro-preview, which sends the fake's tool calls back under
// ids of its own (call_tc-…): each call is still followed to the request
// that answers it, and what reached the model of its result is read.
func TestCallsUnderIDsOfTheClient(t *testing.T) {
	res, err := Run(filepath.Join("testdata", "modelruns", "droid@0.225.2", "model-gemini-3-1-pro", "surface-results", "1"), clients.New)
	if err != nil {
		t.Fatal(err)
	}
	if res.Surface == nil || len(res.Surface.Calls) != 10 {
		t.Fatalf("want the 10 calls of the row, got %+v", res.Surface)
	}
	for _, c := range res.Surface.Calls {
		if c.Following == 0 || !c.Reached {
			t.Errorf("%s: reached %v, answered in request %d; want reached and answered", c.Tool, c.Reached, c.Following)
		}
		if c.Tool == "result_text" && (len(c.Parts) != 1 || !c.Parts[0].Reached) {
			t.Errorf("result_text: parts %+v; want its text reached", c.Parts)
		}
	}
}

// TestModelDecidesImages reads Qwen Code 0.24.4 under its default model
// and under gemini-2.5-pro, which its code counts as taking images: the
// image part of result_image reaches the model, as an image, only under
// the second; its text part reaches it under both.
func TestModelDecidesImages(t *testing.T) {
	dir := filepath.Join("testdata", "modelruns", "qwen@0.24.4")
	for _, tc := range []struct {
		arm   string
		image bool
	}{
		{"default", false},
		{"model-gemini-2-5-pro", true},
	} {
		res, err := Run(filepath.Join(dir, tc.arm, "surface-results", "1"), clients.New)
		if err != nil {
			t.Fatal(err)
		}
		if res.Surface == nil {
			t.Fatalf("%s: no surface", tc.arm)
		}
		i := slices.IndexFunc(res.Surface.Calls, func(c surface.CallFacts) bool { return c.Tool == "result_image" })
		if i < 0 {
			t.Fatalf("%s: no call of result_image in %+v", tc.arm, res.Surface.Calls)
		}
		var image, text *surface.Found
		for j, p := range res.Surface.Calls[i].Parts {
			switch p.SentForm {
			case surface.FormImage:
				image = &res.Surface.Calls[i].Parts[j]
			case surface.FormText:
				text = &res.Surface.Calls[i].Parts[j]
			}
		}
		if image == nil || image.Reached != tc.image || tc.image && image.Form != surface.FormImage {
			t.Errorf("%s: the image part %+v; want reached %v, as an image", tc.arm, image, tc.image)
		}
		if text != nil && !text.Reached {
			t.Errorf("%s: the text part did not reach the model: %+v", tc.arm, text)
		}
	}
}

// TestModelDecidesSchemasCopilot reads GitHub Copilot CLI 1.0.102 under
// its default model and under gemini-3.8-flash, whose id sends every
// schema through its Gemini sanitizer: the property typed ["string",
// "null"] reaches the model as sent in one, as "string" with the list
// moved into its description in the other.
func TestModelDecidesSchemasCopilot(t *testing.T) {
	dir := filepath.Join("testdata", "modelruns", "copilot@1.0.102")
	for _, tc := range []struct {
		arm, fate, became string
	}{
		{"default", surface.Kept, ""},
		{"model-gemini-3-8-flash", surface.Rewritten, `"string"`},
	} {
		res, err := Run(filepath.Join(dir, tc.arm, "surface-schemas", "1"), clients.New)
		if err != nil {
			t.Fatal(err)
		}
		if res.Surface == nil {
			t.Fatalf("%s: no surface", tc.arm)
		}
		i := slices.IndexFunc(res.Surface.Tools, func(d surface.ToolDef) bool { return d.Tool == "schema_nullable" })
		if i < 0 {
			t.Fatalf("%s: no definition of schema_nullable", tc.arm)
		}
		kw := res.Surface.Tools[i].Keywords
		j := slices.IndexFunc(kw, func(k surface.KeywordFact) bool { return k.Path == "/properties/value" && k.Keyword == "type" })
		switch {
		case tc.fate == surface.Kept && j >= 0: // a keyword inside is listed when it changed
			t.Errorf("%s: want type at /properties/value as sent, got %+v", tc.arm, kw[j])
		case tc.fate != surface.Kept && (j < 0 || kw[j].Fate != tc.fate || kw[j].Became != tc.became):
			t.Errorf("%s: want type at /properties/value %s (became %s) in %+v", tc.arm, tc.fate, tc.became, kw)
		}
	}
}
