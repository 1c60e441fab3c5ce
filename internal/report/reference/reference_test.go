package reference

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/schema"
	"github.com/instrlab/instrlab/schema/schematest"
)

var update = flag.Bool("update", false, "rewrite docs/reference from the built-in profiles and the committed atlases")

// root is the repository's root, from this package.
const root = "../../.."

// committed is the reference as the repository publishes it, and the
// atlases it is written from (as its command names them).
const committed = "docs/reference"

// committedAtlases lists the atlases the repository commits (atlas.Committed).
func committedAtlases(tb testing.TB) []string {
	tb.Helper()
	dirs, err := atlas.Committed(root)
	if err != nil {
		tb.Fatal(err)
	}
	return dirs
}

func builtinSource(t *testing.T) Source {
	t.Helper()
	ps, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	dirs := committedAtlases(t)
	src := Source{Profiles: ps, Base: "../..", Command: Command(committed, dirs)}
	for _, d := range dirs {
		a, err := atlas.Read(t.Context(), evidence.SweepDir(filepath.Join(root, d)).Atlas())
		if err != nil {
			t.Fatal(err)
		}
		src.Atlases = append(src.Atlases, Atlas{Dir: d, Atlas: a})
	}
	return src
}

// TestCommittedReference holds docs/reference to the data: every page is
// what the reference's command writes from the built-in profiles and the
// committed atlases, byte for byte, and no other page is there.
func TestCommittedReference(t *testing.T) {
	src := builtinSource(t)
	dir := filepath.Join(root, committed)
	if *update {
		if err := Write(dir, src); err != nil {
			t.Fatal(err)
		}
	}
	pages, err := Pages(src)
	if err != nil {
		t.Fatal(err)
	}
	var onDisk []string
	for _, sub := range []string{".", "clients"} {
		md, _ := filepath.Glob(filepath.Join(dir, sub, "*.md"))
		js, _ := filepath.Glob(filepath.Join(dir, sub, "*.json"))
		for _, f := range append(md, js...) {
			rel, _ := filepath.Rel(dir, f)
			onDisk = append(onDisk, filepath.ToSlash(rel))
		}
	}
	for _, f := range onDisk {
		if _, ok := pages[f]; !ok {
			t.Errorf("docs/reference/%s is not a page of the reference: remove it (%s)", f, src.Command)
		}
	}
	for name, want := range pages {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("docs/reference/%s is not what %s writes (%v): regenerate it (go test ./internal/report/reference -update)", name, src.Command, err)
		}
	}
}

// TestKnownFacts reads facts measured and committed elsewhere off the
// pages, so a reference that lost a group, a client or a change point
// fails here, not in a reader's hands.
func TestKnownFacts(t *testing.T) {
	pages, err := Pages(builtinSource(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ page, want string }{
		// The atlas: Claude Code's cap from 2.1.84 and 2.1.296, Kilo
		// Code's instructions from 7.7.2, opencode's probe and back.
		{"clients/claude-code.md", "| 2.1.84 | 2.1.83 | cap: none up to 6000 characters → 2048 characters; marker: no cut → \"… \\[truncated]\" | yes |"},
		{"clients/claude-code.md", "| 2.1.296 | 2.1.295 | cap: 2048 characters → 4096 characters"},
		{"clients/kilo.md", "| 7.7.2 | 7.0.33 | uses: no → yes;"},
		{"clients/opencode.md", "| 1.18.8 | 1.18.4 | probe: initialize first → server/discover first;"},
		// The profiles: Claude Code 2.1.332's cap in UTF-16 units, and what
		// it gives the model of a result with both parts.
		{"clients/claude-code.md", "| kept | cut at 4,096 UTF-16 units | cut at 4,096 UTF-16 units |"},
		{"tool-results.md", "| [Claude Code 2.1.332](clients/claude-code.md) | text kept | structured kept | text dropped, structured kept |"},
		{"tool-results.md", "| [Gemini CLI 0.61.0](clients/gemini.md) | text kept | structured dropped | text kept, structured dropped |"},
		{"budgets.md", "| [Codex CLI 0.171.0](clients/codex.md) | no: initialize first | did not wait for a server held 8s | 1.2–1.3 s; past it, drops the server"},
		{"instructions.md", "| [Cline CLI 3.0.65](clients/cline.md) | none reach the model |"},
		// A budget measured under a model, in that model's way: Claude
		// Code 2.1.332 defers no tool under a claude-3 model.
		{"clients/claude-code.md", "| text dropped, structured kept | image kept | dropped: none; rewritten: none | at least 512 tools |"},
		// An image a result holds reaches Qwen Code 0.24.4's model only under
		// a model of a family its code gives images.
		{"clients/qwen.md", "| model gemini-2.5-pro | 6 | whole, up to 20,000 characters (the longest sent) | user turn | cut at 157 characters | text kept, structured kept | image kept |"},
		{"clients/qwen.md", "| model qwen3-coder-plus | 6 | whole, up to 20,000 characters (the longest sent) | user turn | cut at 157 characters | text kept, structured kept | image dropped |"},
		{"approvals.md", "| [Cline CLI 3.0.65](clients/cline.md) | hints none: ran; hints read-only: ran; hints destructive: ran | hints none: refused;"},
	} {
		if !strings.Contains(string(pages[c.page]), c.want) {
			t.Errorf("%s lacks %q", c.page, c.want)
		}
	}
}

// TestEveryGroupEveryClient: each client's page has a section per group
// and each group's page a row per client.
func TestEveryGroupEveryClient(t *testing.T) {
	src := builtinSource(t)
	pages, err := Pages(src)
	if err != nil {
		t.Fatal(err)
	}
	cs := clients(src)
	if len(cs) < 10 {
		t.Fatalf("%d clients, want every built-in one", len(cs))
	}
	for _, c := range cs {
		page := string(pages[clientFile(c.id)])
		for _, g := range groups {
			if !strings.Contains(page, "\n## "+g.title+"\n") {
				t.Errorf("%s has no section %q", clientFile(c.id), g.title)
			}
			if !strings.Contains(string(pages[g.file]), "("+clientFile(c.id)+")") {
				t.Errorf("%s has no row for %s", g.file, c.id)
			}
		}
		if !strings.Contains(page, "\n## Since which version\n") || !strings.Contains(page, "\n## Evidence\n") {
			t.Errorf("%s lacks its history or its evidence", clientFile(c.id))
		}
	}
	// The protocol's page: a table per era and transport, each with a row
	// per client, its columns the features without the section's suffix;
	// a client's page keeps them as rows named with it.
	proto := string(pages["protocol.md"])
	for _, title := range []string{"Over stdio, 2025-11-25", "Over stdio, 2026-07-28", "Over Streamable HTTP, 2025-11-25", "Over Streamable HTTP, 2026-07-28"} {
		i := strings.Index(proto, "\n## "+title+"\n")
		if i < 0 {
			t.Errorf("protocol.md has no section %q", title)
			continue
		}
		table := proto[i:]
		if j := strings.Index(table[1:], "\n## "); j >= 0 {
			table = table[:j+1]
		}
		if !strings.Contains(table, "| client | declared | elicitation form |") || strings.Contains(table, "(2026-07-28)") || strings.Count(table, "](clients/") != len(cs) {
			t.Errorf("protocol.md's section %q: not a table of the features with a row per client", title)
		}
	}
	if !strings.Contains(string(pages[clientFile("copilot")]), "| turn (2026-07-28, HTTP) | never ends: the run timed out; no answer to sampling, roots/list |") {
		t.Error("copilot's page lacks its turn over HTTP in 2026-07-28 as a row")
	}
}

// unescaped matches what a hostile text must not become: HTML, a link to
// anything but https and the repository, a heading.
var unescaped = regexp.MustCompile(`(^|[^\\])<(img|b)|(^|[^\\])\[[^\]]*\]\((javascript|http):|\n# heading`)

// unescapedHTML matches what a hostile text must not become in the site:
// an element or a link to anything but https and the site.
var unescapedHTML = regexp.MustCompile(`<(img|b)\b|href="(javascript|http):`)

var linkTarget = regexp.MustCompile(`\]\(<?([^)>]+)>?\)`)

// TestLinksResolve: every relative link of the committed reference names
// a file of the repository (evidence a profile or the atlas names, a page
// of the reference).
func TestLinksResolve(t *testing.T) {
	pages, err := Pages(builtinSource(t))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for name, b := range pages {
		for _, m := range linkTarget.FindAllStringSubmatch(string(b), -1) {
			target := m[1]
			if strings.HasPrefix(target, "https://") {
				continue
			}
			file := filepath.Join(root, committed, filepath.FromSlash(path.Dir(name)), filepath.FromSlash(target))
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s links to %s, which is not there: %v", name, target, err)
			}
			checked++
		}
	}
	if checked < 500 {
		t.Errorf("checked %d links, want the atlas's and the evidence's (hundreds)", checked)
	}
}

// TestHostileProfile: a profile is anyone's run; its texts cannot break
// a table, open HTML or link anywhere but https and the repository.
func TestHostileProfile(t *testing.T) {
	evil := "x | y <img src=x onerror=alert(1)>\n# heading [a](javascript:alert(1))"
	p := profiles.Profile{
		Client: "evil", Name: "Evil | <b>", Version: "1.0.0",
		Instructions: profiles.Limit{Cap: 10, Unit: "codepoint", Measured: true, Marker: evil, Note: evil},
		Render:       profiles.Render{Placement: evil, Server: evil, Note: evil},
		Evidence: []profiles.Evidence{
			{Kind: "article", Ref: "javascript:alert(1)", Says: evil},
			{Kind: "docs", Ref: "http://example.com/x", Says: evil},
		},
		Unmeasured: []string{evil},
		Variants:   []profiles.Variant{{When: evil, Runs: 1}},
	}
	site, err := Pages(Source{Profiles: []profiles.Profile{p}, Base: "../..", Command: evil, html: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range site {
		if m := unescapedHTML.FindString(string(b)); m != "" && strings.HasSuffix(name, ".md") {
			t.Errorf("the site's %s holds %q unescaped", name, m)
		}
	}
	pages, err := Pages(Source{Profiles: []profiles.Profile{p}, Base: "../..", Command: evil})
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range pages {
		s := string(b)
		if strings.HasSuffix(name, ".json") {
			if !json.Valid(b) {
				t.Errorf("%s is not JSON", name)
			}
			continue
		}
		if m := unescaped.FindString(s); m != "" {
			t.Errorf("%s holds %q unescaped", name, m)
		}
		for _, line := range strings.Split(s, "\n") {
			if !strings.HasPrefix(line, "|") {
				continue
			}
			if n := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|"); n != strings.Count(tableHeadOf(s, line), "|") {
				t.Errorf("%s: a row of %d cells' bars under a head of another count: %q", name, n, line)
			}
		}
	}
}

// tableHeadOf is the head line of the table line belongs to.
func tableHeadOf(page, line string) string {
	lines := strings.Split(page, "\n")
	i := slices.Index(lines, line)
	for i > 0 && strings.HasPrefix(lines[i-1], "|") {
		i--
	}
	return strings.ReplaceAll(lines[i], `\|`, "")
}

func TestGenerateNeedsOut(t *testing.T) {
	var u cli.UsageError
	if err := Generate(t.Context(), "", nil, ""); !errors.As(err, &u) {
		t.Fatalf("Generate without -out: %v, want a usage error", err)
	}
	if err := Generate(t.Context(), t.TempDir(), []string{t.TempDir()}, "https://example.org/repo/"); err == nil || !strings.Contains(err.Error(), "not under the working directory") {
		t.Fatalf("Generate from an atlas outside the working directory it publishes: %v", err)
	}
}

// TestWriteRemovesStalePages: a client gone from the profiles leaves no
// page behind.
func TestWriteRemovesStalePages(t *testing.T) {
	dir := t.TempDir()
	src := builtinSource(t)
	stale := filepath.Join(dir, "clients", "gone.md")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	keep := filepath.Join(dir, "clients", "notes.txt")
	if err := os.WriteFile(keep, []byte("not a page"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, src); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale page is still there: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("a file that is not a page was removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "clients", "claude-code.md")); err != nil {
		t.Error(err)
	}
}

// TestExports: compat.json and presets.json validate against their
// schemas, and known facts round-trip through them: Claude Code's cap of
// 2,048 characters from 2.1.84 and 4,096 from 2.1.296, Kilo Code's
// instructions from 7.7.2 (the atlas); Claude Code 2.1.332's name budget
// and Codex CLI 0.171.0's dropped format (the profiles).
func TestExports(t *testing.T) {
	pages, err := Pages(builtinSource(t))
	if err != nil {
		t.Fatal(err)
	}
	for file, id := range map[string]string{"compat.json": schema.Compat, "presets.json": schema.Presets} {
		if err := schematest.Validate(id, pages[file]); err != nil {
			t.Errorf("%s does not validate: %v", file, err)
		}
	}
	var compat struct {
		MCP map[string]map[string]struct {
			Compat struct {
				Support map[string][]struct {
					Added   any      `json:"version_added"`
					Removed string   `json:"version_removed"`
					Partial bool     `json:"partial_implementation"`
					Notes   []string `json:"notes"`
				} `json:"support"`
			} `json:"__compat"`
		} `json:"mcp"`
	}
	if err := json.Unmarshal(pages["compat.json"], &compat); err != nil {
		t.Fatal(err)
	}
	whole := compat.MCP["instructions"]["whole"].Compat.Support["claude-code"]
	want := map[string]string{"2.1.296": "cut at 4096 characters", "2.1.84": "cut at 2048 characters"}
	for _, s := range whole {
		if note, ok := want[fmt.Sprint(s.Added)]; ok && s.Partial && len(s.Notes) > 0 && s.Notes[0] == note {
			delete(want, fmt.Sprint(s.Added))
			if s.Added == "2.1.84" && s.Removed != "2.1.296" {
				t.Errorf("the 2,048 cap is removed in %q, want 2.1.296", s.Removed)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("compat.json's instructions.whole for claude-code lacks %v: %+v", want, whole)
	}
	if used := compat.MCP["instructions"]["used"].Compat.Support["kilo"]; len(used) != 1 || used[0].Added != "7.7.2" || used[0].Removed != "" {
		t.Errorf("compat.json's instructions.used for kilo: %+v, want from 7.7.2 on", used)
	}
	if s := compat.MCP["input_schema"]["format"].Compat.Support["codex"]; len(s) != 1 || s[0].Added != false {
		t.Errorf("compat.json's input_schema.format for codex: %+v, want false (dropped)", s)
	}
	var presets PresetsFile
	if err := json.Unmarshal(pages["presets.json"], &presets); err != nil {
		t.Fatal(err)
	}
	cc := presets.Clients["claude-code@2.1.332"]
	if cc.ToolNameLength.Value == nil || *cc.ToolNameLength.Value != 118 || cc.Refs.Value == nil || !*cc.Refs.Value {
		t.Errorf("claude-code@2.1.332's preset: %+v, want names of 118 characters and $ref kept", cc)
	}
	if f := presets.Clients["codex@0.171.0"].Formats; f.Value == nil || *f.Value {
		t.Errorf("codex@0.171.0's formats: %+v, want false (format dropped)", f)
	}
	if f := cc.TopLevelUnions; f.Value != nil || !strings.Contains(f.Says, notMeasured) {
		t.Errorf("top-level unions: %+v, want null, not measured (the lab has no such schema)", f)
	}
}

// TestProfilesAgreeWithAtlas: where a client version has both a built-in
// profile and a point in an atlas (the same version, measured twice, by
// different runs), the two say the same of every fact both read: whether
// the instructions are used, the cap's number, the probe, which part of a
// result with both reached the model, and the deferral threshold and the
// tool-name limit of the client's own way. A reference built from the two
// would otherwise contradict itself between a client's columns and its
// history (a sweep that read Cline CLI 3.0.65's cut names as whole, 256
// characters against its profile's 59, would fail here).
func TestProfilesAgreeWithAtlas(t *testing.T) {
	src := builtinSource(t)
	checked := 0
	for _, c := range clients(src) {
		for _, p := range c.versions {
			for _, tl := range c.timelines {
				for _, pt := range tl.Points {
					if pt.Version != p.Version || !pt.Ran() || pt.Attempt > 1 {
						continue
					}
					for _, f := range agreeing {
						v := pt.Props.Get(f.prop)
						if v == "" {
							continue
						}
						want, ok := f.profile(p)
						if !ok {
							continue
						}
						got := f.atlas(v)
						if got == "" { // the atlas's value is not measured there
							continue
						}
						checked++
						if got != want {
							t.Errorf("%s@%s %s: the profile says %q, the atlas (%s) %q (%s)", c.id, p.Version, f.prop, want, tl.dir, got, v)
						}
					}
				}
			}
		}
	}
	t.Logf("%d facts compared", checked)
	if checked < 10 {
		t.Errorf("%d facts compared: want the profiled versions the atlases probed", checked)
	}
}

// agreeing are the facts a profile and an atlas point both read, each as
// one comparable word.
var agreeing = []struct {
	prop    string
	profile func(profiles.Profile) (string, bool)
	atlas   func(string) string
}{
	{"uses", func(p profiles.Profile) (string, bool) { return fmt.Sprint(!p.Render.Unused), p.Render.Placement != "" },
		func(v string) string { return fmt.Sprint(v == "yes") }},
	{"cap", func(p profiles.Profile) (string, bool) {
		return fmt.Sprint(p.Instructions.Cap), p.Instructions.Measured || p.Instructions.AtLeast > 0
	}, func(v string) string {
		n := 0
		fmt.Sscanf(v, "%d characters", &n)
		return fmt.Sprint(n)
	}},
	{"probe", func(p profiles.Profile) (string, bool) { return fmt.Sprint(p.Handshake.ProbeStdio), true },
		func(v string) string { return fmt.Sprint(v == "server/discover first") }},
	{"result-form", func(p profiles.Profile) (string, bool) {
		r := p.Surface.Result(profiles.ResultBoth)
		if r == nil {
			return "", false
		}
		return fmt.Sprint(r.Content == profiles.FateKept, r.Structured == profiles.FateKept), true
	}, func(v string) string {
		return fmt.Sprint(v == "both" || v == "content text only", v == "both" || v == "structuredContent only")
	}},
	{"defer budget", func(p profiles.Profile) (string, bool) { return budgetWord(p, profiles.BudgetDefer) },
		func(v string) string {
			return countWord(v, `^defers at ([\d,]+) tools? already`, `^does not defer up to ([\d,]+) tools?`, `^defers from ([\d,]+) tools? \(not at ([\d,]+)\)`)
		}},
	{"name budget", func(p profiles.Profile) (string, bool) { return budgetWord(p, profiles.BudgetName) },
		func(v string) string {
			return countWord(v, `^refuses a tool name of ([\d,]+) characters? already`, `^accepts a tool name of ([\d,]+) characters?, the longest tried`, `^accepts a tool name of up to ([\d,]+) characters?`)
		}},
	{"result budget", func(p profiles.Profile) (string, bool) { return budgetWord(p, profiles.BudgetResult) },
		func(v string) string {
			return countWord(v, `^does not give the model whole a result of ([\d,]+) characters?, the shortest tried`, `^gives the model a result of ([\d,]+) characters? whole, the longest tried`, `^gives the model a result of up to ([\d,]+) characters? whole`)
		}},
}

// budgetWord is a count budget of the profile's own way (no other model,
// arm or setting) as one word: "below N" (past it at the fewest tried),
// "above N" (within it at the most tried), or "within N" (the edge).
func budgetWord(p profiles.Profile, name string) (string, bool) {
	for _, b := range p.Budgets {
		if b.Name != name || b.Way != "" || len(b.Settings) > 0 {
			continue
		}
		switch {
		case b.Below:
			return fmt.Sprintf("below %.0f", b.Past), true
		case b.Above:
			return fmt.Sprintf("above %.0f", b.Within), true
		}
		return fmt.Sprintf("within %.0f", b.Within), true
	}
	return "", false
}

// countWord reads an atlas's count budget as budgetWord words it, by the
// three sentences the budget says it in (below, above, the edge: its
// first number is where it stops), "" for another (not measured).
func countWord(v, below, above, edge string) string {
	num := func(s string) string { return strings.ReplaceAll(s, ",", "") }
	if m := regexp.MustCompile(below).FindStringSubmatch(v); m != nil {
		return "below " + num(m[1])
	}
	if m := regexp.MustCompile(above).FindStringSubmatch(v); m != nil {
		return "above " + num(m[1])
	}
	if m := regexp.MustCompile(edge).FindStringSubmatch(v); m != nil {
		if len(m) > 2 { // "defers from P (not at W)": the edge is W
			return "within " + num(m[2])
		}
		return "within " + num(m[1])
	}
	return ""
}

// TestCompatOtherWays: compat.json carries what the runs measured under
// other models and approval modes as BCD's flagged statements, and only
// where the way changes the statement: Qwen Code 0.24.4 gives the model a
// result's image under gemini-2.5-pro alone; Claude Code 2.1.332's cap is
// the same under every model, so no model flags it; a read-only tool runs
// in Copilot CLI's default mode and a destructive one is refused there;
// every Claude Code call is refused in its default and plan modes and runs
// pre-approved; Continue CLI, which never sends the text, waits for a slow
// server by its profile's runs, not by the atlas's "text never arrives".
func TestCompatOtherWays(t *testing.T) {
	file := CompatOf(builtinSource(t))
	support := func(group, feature, client string) []SupportStep {
		t.Helper()
		s, ok := file.MCP[group][feature].Compat.Support[client]
		if !ok {
			t.Fatalf("%s.%s has no statement for %s", group, feature, client)
		}
		return s
	}
	flagged := func(steps []SupportStep, name, value string) (SupportStep, bool) {
		for _, s := range steps {
			if len(s.Flags) == 1 && s.Flags[0] == (CompatFlag{"runtime_flag", name, value}) {
				return s, true
			}
		}
		return SupportStep{}, false
	}
	image := support("tool_results", "image", "qwen")
	if image[0].Flags != nil || image[0].VersionAdded != "" {
		t.Errorf("qwen's image, default: %+v, want not supported", image[0])
	}
	if s, ok := flagged(image, FlagModel, "gemini-2.5-pro"); !ok || s.VersionAdded != "≤0.24.4" {
		t.Errorf("qwen's image with model gemini-2.5-pro: %+v (found %v), want ≤0.24.4", s, ok)
	}
	if _, ok := flagged(image, FlagModel, "qwen3-coder-plus"); ok {
		t.Errorf("qwen's image has a statement for qwen3-coder-plus, which changes nothing: %+v", image)
	}
	for _, s := range support("instructions", "whole", "claude-code") {
		if len(s.Flags) > 0 {
			t.Errorf("claude-code's instructions.whole has a flagged statement, though no model changes its cap: %+v", s)
		}
	}
	if s := support("approval", "read_only", "copilot"); s[0].Flags != nil || s[0].VersionAdded != "≤1.0.102" {
		t.Errorf("copilot's read-only tool in its default mode: %+v, want it runs", s[0])
	}
	if s := support("approval", "destructive", "copilot"); s[0].Flags != nil || s[0].VersionAdded != "" {
		t.Errorf("copilot's destructive tool in its default mode: %+v, want refused", s[0])
	}
	cc := support("approval", "destructive", "claude-code")
	if cc[0].VersionAdded != "" || !strings.Contains(strings.Join(cc[0].Notes, " "), "refused: the model is told") {
		t.Errorf("claude-code's destructive tool in its default mode: %+v, want refused, with what the model is told", cc[0])
	}
	if s, ok := flagged(cc, FlagApproval, profiles.ModePlan); !ok || s.VersionAdded != "" {
		t.Errorf("claude-code's destructive tool in plan mode: %+v (found %v), want refused", s, ok)
	}
	if s, ok := flagged(cc, FlagApproval, preApproved); !ok || s.VersionAdded != "≤2.1.332" {
		t.Errorf("claude-code's destructive tool pre-approved: %+v (found %v), want it runs", s, ok)
	}
	if s := support("startup", "waits_for_slow_server", "continue"); len(s) != 1 || s[0].VersionAdded != "≤1.5.47" {
		t.Errorf("continue's wait for a slow server: %+v, want its profile's: it waited", s)
	}
}

// TestCompatProtocol: what a client does with what a server asks and
// announces is in compat.json, a group per protocol era: Claude Code
// 2.1.332 cancels an elicitation (partial: the server gets no input),
// over 2026-07-28 too, in its retry of the input_required call; it answers
// roots/list with one root; Cline CLI never lists the tools again;
// Copilot CLI's model has the new tool with the call's result; ADK drops
// x-mcp-header; Grok CLI, which offered no tool, measured none.
func TestCompatProtocol(t *testing.T) {
	file := CompatOf(builtinSource(t))
	first := func(group, feature, client string) (SupportStep, bool) {
		s := file.MCP[group][feature].Compat.Support[client]
		if len(s) == 0 {
			return SupportStep{}, false
		}
		return s[0], true
	}
	for _, tc := range []struct {
		group, feature, client string
		added                  Added
		partial                bool
		note                   string
	}{
		{"protocol", "elicitation_form", "claude-code", "≤2.1.332", true, "answers cancel"},
		{"protocol_2026_07_28", "elicitation_form", "claude-code", "≤2.1.332", true, "answers cancel"},
		{"protocol", "roots", "claude-code", "≤2.1.332", false, "result: 1 roots"},
		{"protocol", "tools_list_changed", "cline", "", false, "never lists the tools again"},
		{"protocol", "tools_list_changed", "copilot", "≤1.0.102", false, ""},
		{"protocol", "x_mcp_header", "adk", "", false, "dropped"},
		{"protocol", "sampling", "gemini", "", false, "error -32601"},
		{"protocol", "task_required_tool", "claude-code", "≤2.1.332", true, "called without a task"},
		{"protocol", "task_required_tool", "opencode", "", false, "the model's call never reaches the server"},
		{"protocol_2026_07_28", "task_required_tool", "openai-agents", "≤0.20.0", true, "called without a task"},
	} {
		s, ok := first(tc.group, tc.feature, tc.client)
		if !ok || s.VersionAdded != tc.added || s.PartialImplementation != tc.partial || !strings.Contains(strings.Join(s.Notes, " "), tc.note) {
			t.Errorf("%s.%s for %s: %+v (found %v); want added %q, partial %v, a note with %q", tc.group, tc.feature, tc.client, s, ok, tc.added, tc.partial, tc.note)
		}
	}
	for _, g := range []string{"protocol", "protocol_2026_07_28"} {
		for f, leaf := range file.MCP[g] {
			if _, ok := leaf.Compat.Support["grok"]; ok {
				t.Errorf("%s.%s has a statement for grok, which measured none", g, f)
			}
		}
	}
}

// TestIndexColumnPerGroup: the index of clients has a column per property
// group, its headline fact, in the groups' order.
func TestIndexColumnPerGroup(t *testing.T) {
	src := builtinSource(t)
	page := string(index(src, clients(src)))
	var head string
	for _, l := range strings.Split(page, "\n") {
		if strings.HasPrefix(l, "| client |") {
			head = l
			break
		}
	}
	want := []string{"client", "versions profiled"}
	for _, g := range groups {
		if g.headline.name == "" || g.headline.of == nil {
			t.Fatalf("group %s has no headline fact", g.title)
		}
		want = append(want, g.headline.name)
	}
	want = append(want, "history swept")
	var got []string
	for _, c := range strings.Split(strings.Trim(head, "| "), " | ") {
		got = append(got, strings.ReplaceAll(c, `\`, ""))
	}
	if !slices.Equal(got, want) {
		t.Errorf("the index's columns %q, want %q", got, want)
	}
}

// TestReleaseDates: where a sweep kept release dates (the committed atlases
// have none: this machine's registry gives no publish record), a client's
// page dates each change point in a column of its own and compat.json
// gives each release its release_date, as browser-compat-data's browsers
// files do; a version only profiled has none.
func TestReleaseDates(t *testing.T) {
	src := builtinSource(t)
	for _, a := range src.Atlases {
		for i, tl := range a.Timelines {
			if tl.Client == "kilo" {
				a.Timelines[i].Released = map[string]string{"7.0.33": "2026-05-08", "7.7.2": "2026-09-16"}
			}
		}
	}
	pages, err := Pages(src)
	if err != nil {
		t.Fatal(err)
	}
	page := string(pages["clients/kilo.md"])
	for _, want := range []string{"| first version | released | last before | what changed | confirmed |", "| 7.7.2 | 2026-09-16 | 7.0.33 | uses: no → yes;"} {
		if !strings.Contains(page, want) {
			t.Errorf("clients/kilo.md lacks %q", want)
		}
	}
	if strings.Contains(string(pages["clients/claude-code.md"]), "| released |") {
		t.Error("clients/claude-code.md has a released column without dates")
	}
	var compat struct {
		Clients map[string]CompatClient `json:"clients"`
	}
	if err := json.Unmarshal(pages["compat.json"], &compat); err != nil {
		t.Fatal(err)
	}
	want := map[string]CompatRelease{"7.0.33": {ReleaseDate: "2026-05-08", Status: "retired"}, "7.7.2": {ReleaseDate: "2026-09-16", Status: "retired"},
		"7.7.7": {Status: "retired"}, "7.7.9": {Status: "current"}}
	if diff := cmp.Diff(want, compat.Clients["kilo"].Releases); diff != "" {
		t.Errorf("compat.json's kilo releases (-want +got):\n%s", diff)
	}
	if err := schematest.Validate(schema.Compat, pages["compat.json"]); err != nil {
		t.Errorf("compat.json with release dates does not validate: %v", err)
	}
}
