package profiles

import (
	"encoding/json"
	"slices"

	"github.com/instrlab/instrlab/internal/unit"

	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func claudeCode(t *testing.T) Profile {
	t.Helper()
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	p, err := Select(t.Context(), ps, []string{"claude-code@2.1.285"})
	if err != nil {
		t.Fatal(err)
	}
	return p[0]
}

func TestParseSetting(t *testing.T) {
	tests := []struct {
		value string
		want  int
		ok    bool
	}{
		{"25000", 25000, true},
		{"25,000", 0, false}, // the seed: the comma made it invalid, the default applied
		{"25k", 0, false},
		{"25000 ", 0, false},
		{" 25000", 0, false},
		{"+25000", 0, false},
		{"-1", 0, false},
		{"0", 0, false},
		{"", 0, false},
		{"2.5e4", 0, false},
		{"２５０００", 0, false}, // full-width digits are not plain digits
		{"007", 7, true},
		{"99999999999999999999999", int(^uint(0) >> 1), true},
	}
	for _, tt := range tests {
		n, ok := ParseSetting(SyntaxPlainDigits, tt.value)
		if n != tt.want || ok != tt.ok {
			t.Errorf("ParseSetting(%q) = %d, %v, want %d, %v", tt.value, n, ok, tt.want, tt.ok)
		}
	}
}

func TestEffectiveCap(t *testing.T) {
	l := claudeCode(t).Instructions
	type res struct {
		Cap int
		Why string
	}
	tests := []struct {
		value string
		set   bool
		want  res
	}{
		{"", false, res{2048, "default"}},
		{"25000", true, res{25000, "set"}},
		{"25,000", true, res{2048, "ignored"}},
	}
	for _, tt := range tests {
		c, why := l.EffectiveCap(tt.value, tt.set)
		if diff := cmp.Diff(tt.want, res{c, why}); diff != "" {
			t.Errorf("EffectiveCap(%q, %v) mismatch (-want +got):\n%s", tt.value, tt.set, diff)
		}
	}
}

func TestApply(t *testing.T) {
	l := Limit{Cap: 5, Unit: UnitCodepoint, Marker: "… [truncated]"}
	tests := []struct {
		text, cap string // cap: the limit's unit, "" for code points
		want      Cut
	}{
		{"abc", "", Cut{Cap: 5, Unit: unit.CodePoint, Units: 3, Chars: 3, Kept: "abc", KeptChars: 3, Delivered: "abc"}},
		{"abcde", "", Cut{Cap: 5, Unit: unit.CodePoint, Units: 5, Chars: 5, Kept: "abcde", KeptChars: 5, Delivered: "abcde"}},
		{"abcdef", "", Cut{Cap: 5, Unit: unit.CodePoint, Units: 6, Chars: 6, Kept: "abcde", KeptChars: 5, LostChars: 1, Truncated: true, Delivered: "abcde… [truncated]"}},
		{"在庫数を推測して", "", Cut{Cap: 5, Unit: unit.CodePoint, Units: 8, Chars: 8, Kept: "在庫数を推", KeptChars: 5, LostChars: 3, Truncated: true, Delivered: "在庫数を推… [truncated]"}},
		// In UTF-16 units an emoji counts two: four emoji do not fit in 5.
		{"🔩🔧📦🧰", "utf16", Cut{Cap: 5, Unit: unit.UTF16, Units: 8, Chars: 4, Kept: "🔩🔧", KeptChars: 2, LostChars: 2, Truncated: true, Delivered: "🔩🔧… [truncated]"}},
		{"🔩🔧📦🧰", "", Cut{Cap: 5, Unit: unit.CodePoint, Units: 4, Chars: 4, Kept: "🔩🔧📦🧰", KeptChars: 4, Delivered: "🔩🔧📦🧰"}},
		{"日本語", "byte", Cut{Cap: 5, Unit: unit.Byte, Units: 9, Chars: 3, Kept: "日", KeptChars: 1, LostChars: 2, Truncated: true, Delivered: "日… [truncated]"}},
	}
	for _, tt := range tests {
		l := l
		if tt.cap != "" {
			l.Unit = tt.cap
		}
		if diff := cmp.Diff(tt.want, l.Apply(tt.text, 0)); diff != "" {
			t.Errorf("Apply(%q) in %s mismatch (-want +got):\n%s", tt.text, l.Unit, diff)
		}
	}
	if got := l.Apply("abcdef", 10); got.Truncated {
		t.Errorf("Apply with cap 10 cut a 6-character text: %+v", got)
	}
}

// TestApplyWhole: a limit that keeps a text up to Whole whole and cuts a
// longer one to Cap (opencode 1.18.33's code mode: 120 whole, 121 cut to
// 119 and "...") keeps 7 of 7 with cap 5 and whole 7, cuts 8 to 5; a cap
// set otherwise (a setting) is a plain cap.
func TestApplyWhole(t *testing.T) {
	l := Limit{Cap: 5, Whole: 7, Unit: UnitCodepoint, Marker: "..."}
	if c := l.Apply("abcdefg", 0); c.Truncated || c.KeptChars != 7 {
		t.Errorf("7 of whole 7: %+v, want whole", c)
	}
	if c := l.Apply("abcdefgh", 0); !c.Truncated || c.Delivered != "abcde..." {
		t.Errorf("8 over whole 7: %+v, want abcde...", c)
	}
	if c := l.Apply("abcdefg", 6); !c.Truncated || c.KeptChars != 6 {
		t.Errorf("7 with a cap of 6 set: %+v, want 6 kept", c)
	}
	p := claudeCode(t)
	p.Instructions.Whole = p.Instructions.Cap
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "is not above its cap") {
		t.Errorf("Validate of a whole equal to the cap: %v", err)
	}
	p = claudeCode(t)
	p.ToolDescriptions.Trim = "sides"
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), `trim "sides"`) {
		t.Errorf("Validate of trim sides: %v", err)
	}
}

// TestOfflineNumbers checks the shipped profile against its run: a
// 1,000-character text renders as 1,132 characters (the seed's online
// runs saw 1,167, in another arm), and a cut one keeps 2,048 characters
// plus a 13-character marker, as in the seed.
func TestOfflineNumbers(t *testing.T) {
	p := claudeCode(t)
	text := strings.Repeat("x", 1000)
	block := p.Render.Apply([]Block{{Server: "lab", Text: p.Instructions.Apply(text, 0).Delivered}})
	if n := utf8.RuneCountInString(block); n != 1132 {
		t.Errorf("rendered block for 1,000 characters is %d characters, want 1,132", n)
	}
	c := p.Instructions.Apply(strings.Repeat("y", 20000), 0)
	if n := utf8.RuneCountInString(c.Delivered); n != 2061 {
		t.Errorf("delivered text for 20,000 characters is %d characters, want 2,061", n)
	}
	if m := utf8.RuneCountInString(p.Instructions.Marker); m != 13 {
		t.Errorf("marker is %d characters, want 13", m)
	}
	if !strings.HasPrefix(block, "# MCP Server Instructions\n") {
		t.Errorf("block does not start as the run shows:\n%s", block[:80])
	}
}

func TestRenderNone(t *testing.T) {
	if got := claudeCode(t).Render.Apply(nil); got != "" {
		t.Errorf("no servers rendered %q, want no block at all", got)
	}
}

func TestSelect(t *testing.T) {
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"claude-code", "claude-code@2.1.285"} {
		got, err := Select(t.Context(), ps, []string{name})
		if err != nil || len(got) != 1 || got[0].Client != "claude-code" {
			t.Errorf("Select(%q) = %v, %v", name, got, err)
		}
	}
	if _, err := Select(t.Context(), ps, []string{"claude-code@0.0.1"}); err == nil {
		t.Error("Select of an unknown version succeeded")
	}
	dir := t.TempDir()
	b, _ := os.ReadFile("data/claude-code@2.1.285.json")
	f := filepath.Join(dir, "mine.json")
	os.WriteFile(f, []byte(strings.Replace(string(b), `2.1.285"`, `9.9.9"`, 2)), 0o644) // client and title
	got, err := Select(t.Context(), ps, []string{f})
	if err != nil || got[0].Version != "9.9.9" {
		t.Errorf("Select(file) = %v, %v", got, err)
	}
}

func TestParseRejects(t *testing.T) {
	b, err := os.ReadFile("data/claude-code@2.1.285.json")
	if err != nil {
		t.Fatal(err)
	}
	good := string(b)
	tests := map[string]string{
		"unknown field":             strings.Replace(good, `"cap": 2048,`, `"cap": 2048, "capp": 1,`, 1),
		"no evidence":               good[:strings.Index(good, `"evidence"`)] + `"evidence": []}`,
		"bad unit":                  strings.Replace(good, `"unit": "utf16"`, `"unit": "octet"`, 1),
		"bad syntax":                strings.Replace(good, `"plain-digits"`, `"anything"`, 1),
		"bad lines":                 strings.Replace(good, `"cap": 2048,`, `"cap": 2048, "lines": "second",`, 1),
		"trailing data":             good + "{}",
		"no text":                   strings.Replace(good, `{text}`, `{txt}`, 1),
		"no version":                strings.Replace(good, `"claude-code@2.1.285"`, `"claude-code"`, 1),
		"title without the version": strings.Replace(good, `"Claude Code 2.1.285"`, `"Claude Code"`, 1),
		"both keys":                 strings.Replace(good, `"title":`, `"version": "2.1.285", "title":`, 1),
	}
	for name, data := range tests {
		if _, err := Parse([]byte(data)); err == nil {
			t.Errorf("%s: Parse succeeded", name)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	order := []string{"2.1.9", "2.1.285", "2.1.328", "2.10.0"}
	for i := 1; i < len(order); i++ {
		if compareVersions(order[i-1], order[i]) >= 0 {
			t.Errorf("compareVersions(%s, %s) >= 0", order[i-1], order[i])
		}
	}
}

func FuzzParse(f *testing.F) {
	b, _ := os.ReadFile("data/claude-code@2.1.285.json")
	f.Add(b)
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		c := p.Instructions.Apply(string(data), 0)
		if c.Truncated && c.KeptChars != c.Cap {
			t.Errorf("kept %d, cap %d", c.KeptChars, c.Cap)
		}
		p.Render.Apply([]Block{{Server: "s", Text: c.Delivered}})
	})
}

// TestEncodeRoundTrip: a profile written by Encode (as instrlab run would)
// parses back to the same profile.
func TestEncodeRoundTrip(t *testing.T) {
	p := claudeCode(t)
	p.Version = "2.1.999"
	p.Evidence = append(p.Evidence, Evidence{Kind: "instrlab-run", Ref: "runs/20261130-0100", Runs: 4, Says: "cap and marker"})
	data, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(string(data), "<system-reminder>") {
		t.Error("Encode escaped the render head")
	}
	p.Evidence = nil
	if _, err := Encode(p); err == nil {
		t.Error("Encode of a profile without evidence succeeded")
	}
}

// TestBuiltinEncoded: the shipped files are as Encode writes them, so a
// profile written by instrlab report -profile-out can replace one as is.
func TestBuiltinEncoded(t *testing.T) {
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		want, err := Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("data", p.ID()+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", p.ID(), diff)
		}
	}
}

// TestVariantValidate: a variant must name its way and render the text,
// and its cap is checked like the profile's.
func TestVariantValidate(t *testing.T) {
	base := claudeCode(t)
	for _, tt := range []struct {
		v    Variant
		want string
	}{
		{Variant{Flags: []string{"-x"}, Render: Render{Server: "{text}"}}, "needs when"},
		{Variant{When: "x", Render: Render{Server: "{text}"}}, "names no flag, setting or model"},
		{Variant{When: "-x", Flags: []string{"-x"}}, "render.server must contain {text}"},
		{Variant{When: "-x", Flags: []string{"-x"}, Render: Render{Server: "{text}"}, Instructions: Limit{Cap: 5, Unit: "furlong"}}, `variant "-x" instructions.unit`},
	} {
		p := base
		p.Variants = []Variant{tt.v}
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: %v, want %q", tt.v, err, tt.want)
		}
	}
	p := base
	p.Variants = []Variant{{When: "model m", Model: "m", Render: Render{Server: "<{name}>{text}", Placement: "there"}, Instructions: Limit{Cap: 7, Unit: "utf16"}}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	ps := Expand([]Profile{p})
	if len(ps) != 2 || ps[1].Title() != "Claude Code 2.1.285 with model m" || ps[1].Model != "m" || ps[1].Instructions.Cap != 7 || ps[1].Render.Placement != "there" || ps[1].Variants != nil {
		t.Errorf("Expand: %+v", ps)
	}
}

// TestArmNeedsEvidence: a profile that states what a client does in an
// arm must have runs in that arm behind it; Expand gives the arm its own
// profile, titled by the arm, with its handshake.
func TestArmNeedsEvidence(t *testing.T) {
	base := claudeCode(t)
	base.Arm = "v2"
	probe := Handshake{ProbeStdio: true, Note: "2 of 2 runs sent server/discover first."}
	v := Variant{When: "in arm probe-env (env MCP_PROTOCOL_NEGOTIATION=auto)", Arm: "probe-env", Render: Render{Server: "{text}"}, Handshake: &probe}
	p := base
	p.Variants = []Variant{v}
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "states what arm probe-env does with no run in that arm") {
		t.Errorf("an arm without runs: %v", err)
	}
	v.Runs = 2
	p.Variants = []Variant{v}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	ps := Expand([]Profile{p})
	if len(ps) != 2 {
		t.Fatalf("Expand gave %d profiles", len(ps))
	}
	if got, want := ps[0].Title(), "Claude Code 2.1.285 in arm v2"; got != want {
		t.Errorf("default arm's title %q, want %q", got, want)
	}
	if got, want := ps[1].Title(), "Claude Code 2.1.285 in arm probe-env (env MCP_PROTOCOL_NEGOTIATION=auto)"; got != want {
		t.Errorf("arm's title %q, want %q", got, want)
	}
	if !ps[1].Handshake.ProbeStdio || ps[0].Handshake.ProbeStdio || ps[1].Arm != "probe-env" {
		t.Errorf("the arm's handshake did not replace the profile's: %+v / %+v", ps[0].Handshake, ps[1].Handshake)
	}
}

// TestBudgetsValidate: a measured budget round-trips through Encode and
// Parse; one without runs, with its sides reversed, or both below and
// above its range is refused.
func TestBudgetsValidate(t *testing.T) {
	p := claudeCode(t)
	good := Budget{Name: "wait", Unit: "s", Within: 1.9, Past: 2.1, PastBudget: "sends the first request without the server (status pending)",
		Late: "instructions lost for the session, tools from request 2 (3 requests)", Runs: 8, MaxLoad: 0.4, Date: "2026-12-02",
		Settings: map[string]string{"CLAUDE_CODE_MCP_STARTUP_WAIT_MS": "5000"}}
	p.Budgets = []Budget{good}
	data, err := Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p.Budgets, got.Budgets); diff != "" {
		t.Errorf("budgets mismatch (-want +got):\n%s", diff)
	}
	for name, change := range map[string]func(b *Budget){
		"no runs":        func(b *Budget) { b.Runs = 0 },
		"sides reversed": func(b *Budget) { b.Within, b.Past = 2.1, 1.9 },
		"below and above": func(b *Budget) {
			b.Below, b.Above = true, true
		},
		"no date": func(b *Budget) { b.Date = "" },
	} {
		b := good
		change(&b)
		p.Budgets = []Budget{b}
		if err := p.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, b)
		}
	}
}

// TestWhere: every placement of a built-in profile and its variants has a
// short name from the list (a new placement's wording needs one there).
func TestWhere(t *testing.T) {
	builtin, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, p := range places {
		known[p.short] = true
	}
	for _, p := range Expand(builtin) {
		if w := p.Render.Where(); !known[w] {
			t.Errorf("%s: placement %q has no short name (got %q)", p.Title(), p.Render.Placement, w)
		}
	}
	if got := (Render{Placement: `a role "developer" message (input[2].content[3].text), a section among the client's own text there`}).Where(); got != "developer message" {
		t.Errorf("Where = %q, want developer message", got)
	}
}

// TestWay: Expand names each way of running a client in a few words.
func TestWay(t *testing.T) {
	builtin, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Select(t.Context(), builtin, []string{"claude-code@2.1.285", "codex@0.169.0", "copilot@1.0.102"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range Expand(ps) {
		got[p.Title()] = p.Way
	}
	for title, want := range map[string]string{
		"Claude Code 2.1.285 in arm v2":                                            "v2",
		"Claude Code 2.1.285 in arm probe-env (env MCP_PROTOCOL_NEGOTIATION=auto)": "probe-env",
		"Codex CLI 0.169.0":                    "",
		"Codex CLI 0.169.0 with model gpt-5.5": "model gpt-5.5",
		"Codex CLI 0.169.0 in arm lazy-stdio (settings features.mcp_lazy_stdio_startup=true) model local-model": "lazy-stdio + model local-model",
		"GitHub Copilot CLI 1.0.102 with --allow-all-mcp-server-instructions":                                   "--allow-all-mcp-server-instructions",
	} {
		if got[title] != want {
			t.Errorf("%s: Way %q, want %q", title, got[title], want)
		}
	}
}

// TestSecondLimit: Claude Code 2.1.332's result budget holds its second
// limit as measured (an error past 101,100 characters of ASCII text), and
// a second limit that does not lie past the first, or says nothing of
// what the client does there, is refused.
func TestSecondLimit(t *testing.T) {
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	var p Profile
	for _, q := range ps {
		if q.ID() == "claude-code@2.1.332" {
			p = q
		}
	}
	i := slices.IndexFunc(p.Budgets, func(b Budget) bool { return b.Name == "result" })
	if i < 0 || p.Budgets[i].Second == nil || p.Budgets[i].Second.Past != 101100 || !strings.Contains(p.Budgets[i].Second.PastBudget, "error") {
		t.Fatalf("claude-code@2.1.332's result budget: %+v", p.Budgets)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, edit := range []func(s *SecondLimit){
		func(s *SecondLimit) { s.Within = 40000 },
		func(s *SecondLimit) { s.Past = s.Within },
		func(s *SecondLimit) { s.PastBudget = "" },
		func(s *SecondLimit) { s.Command = "" },
	} {
		q := p
		q.Budgets = slices.Clone(p.Budgets)
		s := *q.Budgets[i].Second
		edit(&s)
		q.Budgets[i].Second = &s
		if err := q.Validate(); err == nil || !strings.Contains(err.Error(), "second limit") {
			t.Errorf("second limit %+v: %v, want refused", s, err)
		}
	}
}

// TestFailureReplyBefore: a profile written before 2026-12-06 keeps a
// failure's reply under "era"; it reads as one that says "reply".
func TestFailureReplyBefore(t *testing.T) {
	for _, doc := range []string{
		`{"method": "server/discover", "tries": 1, "instructions": true, "tools": true, "era": "initialize", "note": "n"}`,
		`{"method": "server/discover", "tries": 1, "instructions": true, "tools": true, "reply": "initialize", "note": "n"}`,
	} {
		var f Failure
		if err := json.Unmarshal([]byte(doc), &f); err != nil {
			t.Fatal(err)
		}
		if f.Reply != "initialize" || f.Method != "server/discover" || f.Tries != 1 || !f.Tools || f.Note != "n" {
			t.Errorf("%s read as %+v", doc, f)
		}
	}
}

// TestParseBefore: a profile file as written before 2026-12-06 (client
// the name alone, name and version beside it) reads as the same profile.
func TestParseBefore(t *testing.T) {
	b, err := os.ReadFile("data/claude-code@2.1.285.json")
	if err != nil {
		t.Fatal(err)
	}
	now, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(b), `"client": "claude-code@2.1.285",
  "title": "Claude Code 2.1.285",`, `"client": "claude-code",
  "name": "Claude Code",
  "version": "2.1.285",`, 1)
	if old == string(b) {
		t.Fatal("the profile file does not begin with client and title")
	}
	before, err := Parse([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(now, before); diff != "" || before.ID() != "claude-code@2.1.285" || before.Name != "Claude Code" {
		t.Errorf("the file before 2026-12-06 reads otherwise (-now +before):\n%s", diff)
	}
}
