package assess

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

func failingProfile(version string, probes bool, fs ...profiles.Failure) profiles.Profile {
	return profiles.Profile{Client: "x", Name: "X", Version: version, Render: profiles.Render{Server: "{text}", Placement: "somewhere"},
		Instructions: profiles.Limit{Cap: 247, Unit: "codepoint", Marker: "...", Measured: true},
		Handshake:    profiles.Handshake{ProbeStdio: probes}, Failures: fs,
		Evidence: []profiles.Evidence{{Kind: "instrlab-run", Ref: "r", Says: "s"}}}
}

// TestFailureApplied: a server that fails a method gets, per profile, what
// the profile measured its client does then: a client that drops the
// server or ends its session shows nothing (0 characters kept) and a
// finding says so; one that keeps the instructions keeps its cut; a
// profile that did not measure it says "not measured" and predicts as if
// the client went on.
func TestFailureApplied(t *testing.T) {
	text := strings.Repeat("a", 1000)
	toolsFailed := ok(probe.Legacy, &text)
	toolsFailed.ToolsError = "tools/list: error -32603: boom"
	toolsFailed.Capabilities = []string{"tools"}
	discoverFailed := probe.EraResult{Era: probe.Modern, Method: "server/discover", Outcome: probe.OutcomeError, Error: &probe.RPCError{Code: -32603, Message: "boom"}}
	initFailed := probe.EraResult{Era: probe.Legacy, Method: "initialize", Outcome: probe.OutcomeError, Error: &probe.RPCError{Code: -32603, Message: "boom"}}
	drops := profiles.Failure{Method: "tools/list", Runs: 1, Sent: 1}
	keeps := profiles.Failure{Method: "tools/list", Runs: 1, Sent: 1, Tries: 4, Instructions: true, Reply: "initialize"}
	fallsBack := profiles.Failure{Method: "server/discover", Runs: 1, Sent: 1, Instructions: true, Tools: true, Reply: "initialize"}
	discoverDrops := profiles.Failure{Method: "server/discover", Runs: 1, Sent: 1}
	exits := profiles.Failure{Method: "initialize", Runs: 1, Sent: 1, Exits: true}
	type shape struct {
		Era      probe.Era
		Kept     int
		Effect   string
		Measured bool
	}
	tests := []struct {
		name     string
		r        probe.Result
		p        profiles.Profile
		want     shape
		findings []string
	}{
		{"tools/list, drops", result(toolsFailed, notFound(), probe.Survival{}, 0), failingProfile("drops", false, drops),
			shape{"", 0, EffectDrops, true}, []string{"tools-failed", "drops-server"}},
		{"tools/list, keeps", result(toolsFailed, notFound(), probe.Survival{}, 0), failingProfile("keeps", false, keeps),
			shape{probe.Legacy, 247, EffectKeeps, true}, []string{"tools-failed", "truncated"}},
		{"tools/list, not measured", result(toolsFailed, notFound(), probe.Survival{}, 0), failingProfile("unmeasured", false),
			shape{probe.Legacy, 247, NotMeasured, false}, []string{"tools-failed", "truncated"}},
		{"probe fails, falls back", result(ok(probe.Legacy, &text), discoverFailed, probe.Survival{Verdict: probe.SurvivalOtherError}, 0),
			failingProfile("fallback", true, fallsBack), shape{probe.Legacy, 247, EffectKeeps, true}, []string{"probe-other-error", "truncated"}},
		{"probe fails, drops", result(ok(probe.Legacy, &text), discoverFailed, probe.Survival{Verdict: probe.SurvivalOtherError}, 0),
			failingProfile("probe-drops", true, discoverDrops), shape{"", 0, EffectDrops, true}, []string{"probe-other-error", "drops-server"}},
		{"probe fails, the client does not probe", result(ok(probe.Legacy, &text), discoverFailed, probe.Survival{Verdict: probe.SurvivalOtherError}, 0),
			failingProfile("no-probe", false, discoverDrops), shape{probe.Legacy, 247, "", false}, []string{"probe-other-error", "truncated"}},
		{"initialize fails, the session ends", result(initFailed, notFound(), probe.Survival{}, 0), failingProfile("exits", false, exits),
			shape{"", 0, EffectExits, true}, []string{"legacy-failed", "ends-session"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := Assess([]probe.Result{tt.r}, Options{Profiles: []profiles.Profile{tt.p}})
			s := rep.Servers[0]
			v := s.Views[0]
			got := shape{Era: v.Era, Kept: v.KeptChars}
			if v.Failure != nil {
				got.Effect, got.Measured = v.Failure.Effect, v.Failure.Measured
				if !strings.Contains(v.Why, v.Failure.Note) {
					t.Errorf("why %q does not say %q", v.Why, v.Failure.Note)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("view mismatch (-want +got):\n%s", diff)
			}
			var fc []string
			for _, f := range s.Findings {
				fc = append(fc, string(f.Code))
			}
			slices.Sort(fc)
			slices.Sort(tt.findings)
			if diff := cmp.Diff(tt.findings, fc); diff != "" {
				t.Errorf("findings mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMetaLimitApplied: a tool whose _meta holds a key the profile
// measured gets that key's limit (here: sent whole where the others are
// named only); the same key with another value, or none, gets the
// profile's own.
func TestMetaLimitApplied(t *testing.T) {
	desc := strings.Repeat("d", 300)
	always := map[string]json.RawMessage{"anthropic/alwaysLoad": json.RawMessage("true")}
	not := map[string]json.RawMessage{"anthropic/alwaysLoad": json.RawMessage("false")}
	tools := []probe.Tool{{Name: "loaded", Description: desc, Meta: always}, {Name: "plain", Description: desc}, {Name: "off", Description: desc, Meta: not}}
	p := failingProfile("meta", false)
	p.ToolDescriptions = profiles.Limit{Unsent: true, Via: "name only", Measured: true, Unit: "codepoint",
		Meta: []profiles.MetaLimit{{Key: "anthropic/alwaysLoad", Value: json.RawMessage(" true"), Runs: 1,
			Limit: profiles.Limit{Via: "definition", AtLeast: 1000, Unit: "codepoint", Measured: true}}}}
	rep := Assess([]probe.Result{result(ok(probe.Legacy, nil, tools...), notFound(), probe.Survival{}, 0)}, Options{Profiles: []profiles.Profile{p}})
	want := []ToolFate{{Tool: "loaded", Chars: 300, KeptChars: 300, Meta: "anthropic/alwaysLoad"}, {Tool: "plain", Chars: 300, Unsent: true}, {Tool: "off", Chars: 300, Unsent: true}}
	if diff := cmp.Diff(want, rep.Servers[0].Views[0].Tools, cmpopts.IgnoreUnexported(ToolFate{})); diff != "" {
		t.Errorf("tool fates mismatch (-want +got):\n%s", diff)
	}
	var b strings.Builder
	if err := WriteText(&b, rep, TextOptions{Verbose: true, Width: 200}); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"tools: 1 of 3 descriptions kept whole; not sent: plain, off", "tool loaded: as measured for a tool whose _meta holds anthropic/alwaysLoad"} {
		if !strings.Contains(b.String(), l) {
			t.Errorf("check's text lacks %q:\n%s", l, b.String())
		}
	}
}

// TestToolsListFailureEveryProfile: check of a server whose tools/list
// fails (error -32603), with each built-in profile's default way of
// running its client: the characters of a 1,000-character text each
// predicts kept, as the profile's evidence measured the client doing
// (Codex CLI drops the whole server, where it would keep 247 of a text
// whose tools listed), and the effect named.
func TestToolsListFailureEveryProfile(t *testing.T) {
	ps, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("a", 1000)
	e := ok(probe.Legacy, &text)
	e.Capabilities = []string{"tools"}
	e.ToolsError = "tools/list: error -32603: lab: tools/list fails on purpose (-fail tools/list)"
	r := result(e, notFound(), probe.Survival{Verdict: probe.SurvivalMethodNotFound}, 0)
	type fate struct {
		Kept   int
		Effect string
	}
	want := map[string]fate{
		"claude-code@2.1.285": {1000, EffectKeeps},
		"claude-code@2.1.328": {1000, EffectKeeps},
		"claude-code@2.1.332": {1000, EffectKeeps},
		"codex@0.169.0":       {0, EffectDrops},
		"codex@0.171.0":       {0, EffectDrops},
		"gemini@0.61.0":       {1000, EffectKeeps},
		"opencode@1.18.33":    {0, EffectDrops},
		"qwen@0.24.4":         {1000, EffectKeeps},
		"kilo@7.7.7":          {0, EffectDrops},
		"kilo@7.7.9":          {0, EffectDrops},
		// These put no instructions in the model's context anyway, and
		// with tools/list failing they drop the server's tools with the
		// server: nothing of it reaches the model (run agrees:
		// TestE2EAgreement, fails-tools-list).
		"copilot@1.0.102": {0, EffectDrops},
		"cline@3.0.65":    {0, EffectDrops},
		"continue@1.5.47": {0, EffectDrops},
		"droid@0.225.2":   {0, EffectDrops},
		// The AI SDK's recipe connects with no catch of its own: the
		// app's request ends (the host exits 1) before any model request.
		"ai-sdk@7.0.185":       {0, EffectExits},
		"openai-agents@0.20.0": {0, EffectExits},
		"langchain@1.1.4":      {0, EffectExits},
		"mastra@2.0.0":         {0, EffectDrops},
		"mcp-use@1.34.6":       {0, EffectDrops},
		"adk@2.0.0":            {0, EffectExits},
		"grok@0.0.34":          {0, EffectDrops},
		// Its own Claude Code keeps the instructions, as Claude Code does.
		"claude-agent-sdk@0.3.337": {1000, EffectKeeps},
	}
	rep := Assess([]probe.Result{r}, Options{Profiles: ps})
	got := map[string]fate{}
	for _, v := range rep.Servers[0].Views {
		if v.Failure == nil {
			t.Errorf("%s: no failure in the view of a server whose tools/list failed", v.Title)
			continue
		}
		got[v.Profile] = fate{v.KeptChars, v.Failure.Effect}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools/list failure per profile mismatch (-want +got):\n%s", diff)
	}
	ps, _ = profiles.Select(t.Context(), ps, []string{"codex@0.169.0"})
	clean := result(ok(probe.Legacy, &text), notFound(), probe.Survival{Verdict: probe.SurvivalMethodNotFound}, 0)
	if v := Assess([]probe.Result{clean}, Options{Profiles: ps}).Servers[0].Views[0]; v.KeptChars != 247 || v.Failure != nil {
		t.Errorf("Codex CLI with tools listed: kept %d, failure %+v; want 247, none", v.KeptChars, v.Failure)
	}
}
