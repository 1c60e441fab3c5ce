package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/claudecode"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/report"
	"github.com/instrlab/instrlab/lab"
)

// TestE2EAgreement holds check's prediction to run's measurement: for
// each server and client, "check -profile CLIENT@VERSION -- CMD" and "run
// -client CLIENT@VERSION -server -- CMD" are compared cell by cell (what
// of the server reaches the model, the era, the placement, the characters
// kept, whether they were cut, each tool's description where the profile
// predicts it, and the verdict on those), and any difference fails with
// both values. Every view check prints is compared with a run in the
// way it holds for: run runs each client in its default arm and in every
// arm a view of check's holds in (-arms); a view no arm runs (a flag, a
// setting, a model the runner names only for calls, an arm whose settings
// name the lab's own tools) is logged with why, and so is a view where
// check says what decides it is not measured (its verdict "not
// measured", or what the client does on the server's failed method).
//
// With INSTRLAB_E2E=1 it runs the lab whose tools/list fails (-fail
// tools/list, issue 28: Codex dropped the server while check predicted
// 247 characters kept) through Claude Code, which keeps the instructions:
// one run, for CI (25 s at load 25; with Qwen Code as well, two at once:
// 55 s at load 21). With INSTRLAB_E2E_AGREE=1 as well, every pinned client
// runs that server and the pinned npm servers of checkNPM
// (server-everything and context7-mcp set instructions; server-filesystem
// and server-memory do not, and have names that prefix each other and
// names clients give their own tools), in every arm with a view: left
// out of CI. A pinned client without a profile of its version (check says so) is
// logged, not compared. INSTRLAB_E2E_AGREE_CLIENTS=SPEC,SPEC runs those
// clients instead (Claude Code, Codex 0.169.0 and opencode: 99 s at load
// 22; every pair agreed).
func TestE2EAgreement(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run real clients")
	}
	servers := []agreeServer{{"fails-tools-list", []string{binary, "serve", "lab", "-instr", "ascii:3000", "-fail", "tools/list"}}}
	if os.Getenv("INSTRLAB_E2E_AGREE") == "1" {
		dir := npmDir(t)
		servers = append(servers,
			agreeServer{"server-everything", []string{nodeBin(dir), npmServer(dir, "server-everything"), "stdio"}},
			agreeServer{"context7-mcp", []string{nodeBin(dir), filepath.Join(dir, "node_modules", "@upstash", "context7-mcp", "dist", "index.js")}},
			agreeServer{"server-filesystem", []string{nodeBin(dir), npmServer(dir, "server-filesystem"), t.TempDir()}},
			agreeServer{"server-memory", []string{nodeBin(dir), npmServer(dir, "server-memory")}})
	}
	specs := agreeSpecs(t)
	compared := 0
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			predicted := map[string][]viewCells{}
			var saw examined
			for _, spec := range specs {
				if vs, e, ok := checkViews(t, spec, srv.command); ok {
					predicted[spec], saw = vs, e
				}
			}
			arms := agreeArms(predicted)
			matched := map[string]bool{}
			for _, r := range runServer(t, specs, arms, srv.command) {
				vs, ok := predicted[r.Client]
				if !ok {
					t.Logf("%s: not compared: check has no profile of this version", r.Client)
					continue
				}
				i, ok := viewFor(views(vs), r)
				if !ok {
					t.Logf("%s: not compared: check prints no view of it", r.Who())
					continue
				}
				want := vs[i].cells
				matched[r.Client+" "+vs[i].view.Way] = true
				if vs[i].unmeasured != "" {
					t.Logf("%s: not compared: check says %s; run %+v", r.Who(), vs[i].unmeasured, measuredCells(r, want))
					continue
				}
				compared++
				if diff := saw.differs(r); diff != "" {
					t.Errorf("%s with %s: check and run examined different servers: %s", r.Who(), srv.name, diff)
				}
				if tp := r.ServerTexts.ToolsPrint; tp != nil && !saw.sameTools(*tp) {
					// A server may list tools by the client's capabilities
					// (server-everything: 13 to check, 16 to Claude Code,
					// 15 to Codex): not another server, but what check's
					// tool cells cannot cover; they compare the tools both saw.
					t.Logf("%s with %s: the server listed other tools to the client than to check: check %v, run %v", r.Who(), srv.name, saw.tools, *tp)
				}
				got := measuredCells(r, want)
				if r.Status != analyze.StatusOK && want.Server == got.Server {
					// A session the server's failure ended has no verdict
					// of run's (none of its runs finished: "not
					// measured"); what both say is that it ended.
					t.Logf("%s: the session ended, as check predicts; run gives no verdict of an unfinished run (check: %s)", r.Who(), want.Verdict)
					got.Verdict = want.Verdict
				}
				t.Logf("%s: check %+v, run %+v", r.Who(), want, got)
				want.Tools, got.Tools = lineBreakApart(want.Tools, r), lineBreakApart(got.Tools, r)
				diff := cmp.Diff(want, got, cmpopts.EquateEmpty())
				if diff != "" && (want.Server != got.Server || want.Era != got.Era) {
					// Whether the server reached the client's first
					// request is a race with its wait, and its era one
					// with a probe's (the AI SDK's stdio transport
					// gives server/discover 1 s, then sends initialize:
					// context7-mcp, about 1 s to its first reply, got
					// initialize in 3 of 10 runs at -j 2): said, and
					// run again once; the second run decides.
					t.Logf("%s with %s: a race? check predicts the server %s in era %q, run saw it %s in %q%s; running it again", r.Who(), srv.name, want.Server, want.Era, got.Server, got.Era, startup(r))
					if again := runServer(t, []string{r.Client}, []string{r.Arm.Name}, srv.command); len(again) == 1 {
						r, got = again[0], measuredCells(again[0], want)
						diff = cmp.Diff(want, got, cmpopts.EquateEmpty())
						t.Logf("%s with %s, again: run %+v%s", r.Who(), srv.name, got, startup(r))
					}
				}
				if diff != "" {
					t.Errorf("%s with %s: check and run disagree (-check +run):\n%s%s", r.Who(), srv.name, diff, startup(r))
				}
			}
			for spec, vs := range predicted {
				for _, v := range vs {
					if !matched[spec+" "+v.view.Way] {
						t.Logf("%s [%s]: not compared: run ran no way of the client this view holds for (%s)", spec, v.view.Way, unrunnable(v.view))
					}
				}
			}
		})
	}
	if compared == 0 {
		t.Error("no client was compared: no pinned client has a profile")
	}
}

// agreeSpecs are the clients an agreement test runs: Claude Code at its
// pin; with INSTRLAB_E2E_AGREE=1 every pinned client;
// INSTRLAB_E2E_AGREE_CLIENTS=SPEC,SPEC those.
func agreeSpecs(t *testing.T) []string {
	t.Helper()
	if only := os.Getenv("INSTRLAB_E2E_AGREE_CLIENTS"); only != "" {
		return strings.Split(only, ",")
	}
	if os.Getenv("INSTRLAB_E2E_AGREE") != "1" {
		return []string{claudecode.Name + "@" + claudecode.DefaultVersion}
	}
	pinned, err := clients.NewList(context.Background(), []string{clients.All}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var specs []string
	for _, c := range pinned {
		specs = append(specs, c.Spec().String())
	}
	return specs
}

type agreeServer struct {
	name    string
	command []string
}

// agreeCells are the facts check predicts and run measures of one
// server in one client.
type agreeCells struct {
	// Server is "reaches the model", "dropped" (nothing of the server in
	// the first request: the client dropped it, or it answered later
	// than the client waits) or "session ends".
	Server string
	Era    string // the era of the text that reached the model; "" for none
	Where  string // where it went, as profiles.Render.Where says it
	Kept   int
	Cut    bool
	// Tools are the tools whose fate the profile predicts: name and the
	// characters of its description kept, or "unsent".
	Tools []string
	// Verdict is the client's verdict on what both measure: the
	// instructions (none, cut), the server (dropped), the tools'
	// descriptions (cut). check's is the worst severity of its findings
	// of those codes for the view; run's its measured verdict
	// (report.Verdicts), which holds no other losses when nothing is
	// called.
	Verdict loss.Verdict
}

// agreedCodes are check's finding codes of the losses run measures
// without -call.
var agreedCodes = []assess.Code{assess.Unused, assess.Truncated, assess.ToolTruncated, assess.DropsServer, assess.EndsSession, assess.StartupSlow, assess.ToolsUnoffered}

// examined is what check examined of a server: each era's instructions
// and tool list by length and digest, and the names of the variables it
// started the server with, as run records its own.
type examined struct {
	instructions map[lab.Reply]fingerprint.Text
	tools        map[lab.Reply]fingerprint.Tools
	env          []string
}

// differs says how what run r examined differs from what check did, with
// both values: the instructions of each reply r's client got, and the
// variables the server started with; "" when they are the same.
func (e examined) differs(r analyze.Result) string {
	var out []string
	if r.ServerTexts == nil {
		return "run recorded no texts of the server"
	}
	for _, reply := range lab.Replies() {
		got, ok := r.ServerTexts.Prints[reply]
		if !ok {
			continue
		}
		if want, ok := e.instructions[reply]; !ok || want != got {
			out = append(out, fmt.Sprintf("%s instructions: check %v, run %v", reply, want, got))
		}
	}
	if r.ServerStart != nil && !slices.Equal(e.env, r.ServerStart.Env) {
		out = append(out, fmt.Sprintf("variables: check %d (%s), run %d (%s)", len(e.env), strings.Join(e.env, " "), len(r.ServerStart.Env), strings.Join(r.ServerStart.Env, " ")))
	}
	return strings.Join(out, "; ")
}

// sameTools reports whether check saw tool list tp in an era.
func (e examined) sameTools(tp fingerprint.Tools) bool {
	return slices.ContainsFunc(lab.Replies(), func(reply lab.Reply) bool { w, ok := e.tools[reply]; return ok && w == tp })
}

// startup says how long r's server took to start, against which the
// client's own waits decide (Codex CLI 0.171.0 waits about 1.1 s for a
// server, Claude Code's probe about 3 s before it falls back to
// initialize): a cell that parts on a server slower than that under load
// is a race, which a quiet machine settles (docs/check.md).
func startup(r analyze.Result) string {
	s := ""
	if ms := r.Timing.StartupMS; ms != nil {
		s = fmt.Sprintf("\nthe server took %.0f ms from its start to the handshake's reply", *ms)
	}
	if r.Timing.Sensitive {
		s += "; run marks the result timing-sensitive: " + r.Timing.Why
	}
	if l := r.Timing.Load; l != nil {
		s += fmt.Sprintf(" (load %.1f)", l.Max())
	}
	return s
}

// viewCells are check's cells of one of its views; unmeasured says why
// check predicts nothing to compare in it, when it does not: its verdict
// is "not measured" (a fact that decides the client's own way was not
// measured in this one), or what the client does on the server's failed
// method is not.
type viewCells struct {
	view       assess.View
	cells      agreeCells
	unmeasured string
}

func views(vs []viewCells) []assess.View {
	out := make([]assess.View, len(vs))
	for i, v := range vs {
		out[i] = v.view
	}
	return out
}

// checkViews are check's predictions for client spec of the server
// command, one per view it prints, and what check examined; false when
// check has no profile of spec.
func checkViews(t *testing.T, spec string, command []string) ([]viewCells, examined, bool) {
	t.Helper()
	rep, failed, stderr := checkProfile(t, spec, command)
	if strings.Contains(failed, "no profile for") {
		t.Logf("check -profile %s: %s", spec, failed)
		return nil, examined{}, false
	}
	if failed != "" || len(rep.Servers) != 1 || len(rep.Servers[0].Views) == 0 {
		t.Fatalf("check -profile %s: no view: %s\n%s", spec, failed, stderr)
	}
	srv := rep.Servers[0]
	var out []viewCells
	for _, v := range srv.Views {
		vc := viewCells{view: v, cells: cellsOf(srv, v)}
		i := slices.IndexFunc(srv.Verdicts, func(c assess.ClientVerdict) bool { return c.Profile == v.Profile && slices.Contains(c.Ways, v.Way) })
		switch {
		case v.Failure != nil && v.Failure.Effect == assess.NotMeasured:
			vc.unmeasured = v.Failure.Note
		case i >= 0 && srv.Verdicts[i].Verdict == loss.VerdictUnknown:
			vc.unmeasured = strings.Join(srv.Verdicts[i].Because, "; ")
		}
		out = append(out, vc)
	}
	e := examined{instructions: map[lab.Reply]fingerprint.Text{}, tools: map[lab.Reply]fingerprint.Tools{}, env: srv.Target.EnvNames}
	for _, tx := range srv.Texts {
		reply := tx.Era.Reply()
		e.instructions[reply], e.tools[reply] = fingerprint.Text{Chars: tx.Chars, SHA256: tx.SHA256}, tx.Tools
		if !tx.Present { // no instructions field: run reads it as ""
			e.instructions[reply] = fingerprint.Of("")
		}
	}
	return out, e, true
}

// cellsOf are check's cells of view v of server srv.
func cellsOf(srv assess.Server, v assess.View) agreeCells {
	c := agreeCells{Server: "reaches the model"}
	switch f := v.Failure; {
	case f != nil && f.Effect == assess.EffectDrops:
		c.Server = "dropped"
	case f != nil && f.Effect == assess.EffectExits, strings.HasPrefix(v.Late, "exits"):
		c.Server = "session ends"
	case v.Late != "":
		// Later than the client waits: its first request goes without
		// the server (Droid 0.225.2 waits at most 111 ms, a node server
		// takes 300 ms and more), as a dropped one's does.
		c.Server = "dropped"
	case v.NoTools && (v.Unused || !v.Present):
		// Neither its tools nor its instructions reach a first request
		// (Grok CLI 0.0.34): nothing of it does.
		c.Server = "dropped"
	}
	if v.KeptChars > 0 {
		c.Era, c.Where, c.Kept, c.Cut = string(v.Era), v.Where, v.KeptChars, v.Truncated
	}
	for _, tf := range v.Tools {
		// A tool the client hides by its name (name-reserved, Gemini's
		// write_file) is not sent, whatever its description.
		hidden := slices.ContainsFunc(v.Surface, func(sf assess.SurfaceFate) bool { return sf.Tool == tf.Tool && sf.Hidden })
		c.Tools = append(c.Tools, toolCell(tf.Tool, !tf.Unsent && !hidden, tf.KeptChars))
	}
	slices.Sort(c.Tools)
	worst := loss.Info
	for _, f := range srv.Findings {
		holds := slices.ContainsFunc(f.For, func(h assess.Holder) bool { return h.Profile == v.Profile && slices.Contains(h.Ways, v.Way) })
		if holds && slices.Contains(agreedCodes, f.Code) && f.Severity.Worse(worst) {
			worst = f.Severity
		}
	}
	// A tool the client hides by its name is a tool missing from the
	// first request, which run measures (name-reserved; one it shadows
	// shows only in a call).
	if slices.ContainsFunc(v.Surface, func(sf assess.SurfaceFate) bool { return sf.Hidden }) {
		worst = loss.Broken
	}
	c.Verdict = loss.Of(worst)
	return c
}

// checkProfile runs check -json with profile spec on the server command:
// its report, the error it reported ("" for none), and its stderr.
func checkProfile(t *testing.T, spec string, command []string) (assess.Report, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	run(context.Background(), append([]string{"check", "-format", "json", "-timeout", "30s", "-profile", spec, "--"}, command...), &stdout, &stderr)
	var rep struct {
		assess.Report
		Error *struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("check -profile %s: %v\n%s", spec, err, stderr.String())
	}
	if rep.Error != nil {
		return rep.Report, rep.Error.Message, stderr.String()
	}
	return rep.Report, "", stderr.String()
}

// runServer runs the server command through the clients of specs, in
// arms (run's -arms; none: each client's default), and returns their
// results: at least one for each client.
func runServer(t *testing.T, specs, arms []string, command []string) []analyze.Result {
	t.Helper()
	out := t.TempDir()
	args := []string{"run", "-lab", binary, "-j", "2", "-timeout", "360s", "-out", out}
	for _, s := range specs {
		args = append(args, "-client", s)
	}
	if len(arms) > 0 {
		args = append(args, "-arms", strings.Join(arms, ","))
	}
	var stderr bytes.Buffer
	// A failed run (a client that ends its session) is a measurement
	// too: the error is the exit status, the results say the rest.
	if err := run(context.Background(), append(append(args, "-server", "--"), command...), new(bytes.Buffer), &stderr); err != nil {
		t.Logf("run: %v", err)
	}
	rs := readResults(t, out)
	for _, s := range specs {
		if !slices.ContainsFunc(rs, func(r analyze.Result) bool { return r.Client == s }) {
			t.Fatalf("no result of %s among %d\n%s", s, len(rs), stderr.String())
		}
	}
	return rs
}

// agreeArms are the arms run runs for views: every client's default and
// each arm a view of check's holds in, so that every view check prints
// that an arm can run is compared; nil when every view is a default's
// (one run per client, as in CI).
func agreeArms(predicted map[string][]viewCells) []string {
	arms := []string{client.DefaultArmName}
	for _, vs := range predicted {
		for _, v := range vs[1:] {
			if v.view.Arm != "" && v.view.Arm != vs[0].view.Arm {
				arms = append(arms, v.view.Arm)
			}
		}
	}
	arms = sortedSet(arms)
	if len(arms) == 1 {
		return nil
	}
	return arms
}

// viewFor is the index in vs of the view run's result r was measured in:
// the view of r's arm (its default's when r ran in the default arm) and
// of the model r named, if any (Codex CLI's local-model, which the runner
// names when a script calls tools); false when check prints none.
func viewFor(vs []assess.View, r analyze.Result) (int, bool) {
	ways := []string{profiles.Way(r.Arm.Name, r.Model, "", nil, nil)}
	if r.Arm.Default {
		ways = append(ways, profiles.Way("", r.Model, "", nil, nil))
	}
	for i, v := range vs {
		arm := v.Arm == r.Arm.Name || v.Arm == "" && r.Arm.Default
		if arm && slices.Contains(ways, v.Way) {
			return i, true
		}
	}
	return 0, false
}

// unrunnable says why no run matched view v: a way run has no arm for
// (a flag or setting), or a model the runner names only for calls.
func unrunnable(v assess.View) string {
	if strings.Contains(v.Way, "model ") {
		return "the runner names another model only when a script calls tools: TestE2ESurfaceAgreement runs it"
	}
	return "no arm of the client runs it this way: " + v.Way
}

// measuredCells are what run measured of r, in check's terms; only the
// tools of want's list (those the profile predicts) are compared.
func measuredCells(r analyze.Result, want agreeCells) agreeCells {
	c := agreeCells{Server: "reaches the model"}
	best := r.First.Best()
	if r.Status != analyze.StatusOK {
		c.Server = "session ends"
	} else if best == nil && !slices.ContainsFunc(r.Tools, func(tf analyze.ToolFacts) bool { return tf.Via != "" }) {
		c.Server = "dropped"
	}
	if best != nil && best.Kept > 0 {
		c.Era, c.Where, c.Kept, c.Cut = eraOf(best.Reply), whereOf(best.Kind), best.Kept, !best.Full
	}
	for _, tf := range r.Tools {
		if slices.ContainsFunc(want.Tools, func(s string) bool { return strings.HasPrefix(s, tf.Name+" ") }) {
			c.Tools = append(c.Tools, toolCell(tf.Name, tf.Found, tf.Kept))
		}
	}
	slices.Sort(c.Tools)
	if vs := report.Verdicts([]analyze.Result{r}); len(vs) == 1 {
		c.Verdict = vs[0].Verdict
	}
	return c
}

// lineBreakApart are tool cells with a count that ends in the line break
// after a description's first line counted without it: a client that
// keeps the first line of several in a listing (opencode's code mode,
// Codex) puts the listing's own line break after it, which run's reading
// cannot tell from the description's (context7-mcp's query-docs: 120
// characters and a break, read as 121 kept). Descriptions are run's
// record of the server's (check examined the same, differs says).
func lineBreakApart(cells []string, r analyze.Result) []string {
	if r.ServerTexts == nil {
		return cells
	}
	out := slices.Clone(cells)
	for i, c := range out {
		name, n, ok := strings.Cut(c, " ")
		kept, err := strconv.Atoi(n)
		if !ok || err != nil || kept == 0 {
			continue
		}
		j := slices.IndexFunc(r.ServerTexts.Tools, func(t analyze.NamedText) bool { return t.Name == name })
		if j < 0 {
			continue
		}
		if d := []rune(r.ServerTexts.Tools[j].Description); kept < len(d) && d[kept-1] == '\n' && !slices.Contains(d[:kept-1], '\n') {
			out[i] = toolCell(name, true, kept-1)
		}
	}
	return out
}

func toolCell(name string, sent bool, kept int) string {
	if !sent {
		return name + " unsent"
	}
	return fmt.Sprintf("%s %d", name, kept)
}

func eraOf(r lab.Reply) string {
	if r == lab.ReplyDiscover {
		return "modern"
	}
	return "legacy"
}

// whereOf is a placement's kind in the words of profiles.Render.Where.
func whereOf(k fakeapi.Kind) string {
	switch k {
	case fakeapi.KindSystem:
		return "system prompt"
	case fakeapi.KindSystemMessage:
		return "system message"
	case fakeapi.KindDeveloperMessage:
		return "developer message"
	case fakeapi.KindUserTurn:
		return "user turn"
	case fakeapi.KindToolDefinition:
		return "tool definition"
	}
	return string(k)
}
