package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/surface"
)

// A surfaceServer is a server the surface agreement runs, and the tool
// every client calls: one with an output schema, whose results carry
// content text and structuredContent.
type surfaceServer struct {
	name    string
	command []string
	tool    string
	call    string // -call's value
}

// TestE2ESurfaceAgreement holds check's surface predictions to run's
// measurement on a real npm server, server-everything (pinned in
// checkNPM), and on the lab's results, schemas and names tools, one tool
// with an output schema called (-call) by each client: for every tool the
// client defined, the name check predicts (kept: the same name; renamed:
// another; cut: that many characters; not offered: never defined) and the
// input schema keywords it predicts dropped and rewritten, against those
// the client sent; and for the called tool, what of its result reached
// the model: on the lab (content text and structuredContent carry
// codewords of their own) which of the two, on server-everything (its
// content text is its structuredContent serialized) only whether either
// did. A client that check predicts starts without the server (Droid: it
// does not wait) is logged, not compared.
//
// With INSTRLAB_E2E=1 it runs Claude Code (CI); with INSTRLAB_E2E_AGREE=1
// every pinned client; INSTRLAB_E2E_AGREE_CLIENTS=SPEC,SPEC those.
func TestE2ESurfaceAgreement(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run real clients")
	}
	dir := npmDir(t)
	specs := agreeSpecs(t)
	servers := []surfaceServer{
		{"server-everything", []string{nodeBin(dir), npmServer(dir, "server-everything"), "stdio"},
			"get-structured-content", `get-structured-content={"location":"New York"}`},
		{"lab", []string{binary, "serve", "lab", "-surface", "results,schemas,names"}, "result_outschema", "result_outschema"},
	}
	if os.Getenv("INSTRLAB_E2E_AGREE") == "1" || os.Getenv("INSTRLAB_E2E_AGREE_CLIENTS") != "" {
		// Real servers are not the lab: names that start or end with
		// another's (list_directory, list_directory_with_sizes), names
		// clients give their own tools (read_file, write_file), many
		// tools with output schemas.
		servers = append(servers,
			surfaceServer{"server-filesystem", []string{nodeBin(dir), npmServer(dir, "server-filesystem"), t.TempDir()},
				"list_allowed_directories", "list_allowed_directories"},
			surfaceServer{"server-memory", []string{nodeBin(dir), npmServer(dir, "server-memory")}, "read_graph", "read_graph"})
	}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) { surfaceAgreement(t, specs, srv) })
	}
}

func surfaceAgreement(t *testing.T, specs []string, srv surfaceServer) {
	predicted := map[string][]assess.View{}
	for _, spec := range specs {
		if vs, ok := checkSurface(t, spec, srv.command); ok {
			predicted[spec] = vs
		}
	}
	out := t.TempDir()
	args := []string{"run", "-lab", binary, "-j", "2", "-timeout", "360s", "-out", out, "-call", srv.call}
	for _, s := range specs {
		args = append(args, "-client", s)
	}
	var stderr bytes.Buffer
	if err := run(context.Background(), append(append(args, "-server", "--"), srv.command...), new(bytes.Buffer), &stderr); err != nil {
		t.Logf("run: %v", err)
	}
	compared := 0
	for _, r := range readResults(t, out) {
		var v assess.View // none: no surface
		if i, ok := viewFor(predicted[r.Client], r); ok {
			v = predicted[r.Client][i]
		}
		switch {
		case v.Late != "" || v.Failure != nil && v.Failure.Effect == assess.EffectDrops:
			t.Logf("%s: not compared: check predicts its first request goes without the server (%s)", r.Client, v.Late)
			continue
		case len(v.Surface) == 0:
			t.Logf("%s: not compared: check predicts no surface for it", r.Client)
			continue
		case r.Surface == nil:
			t.Errorf("%s: run measured no surface (status %s: %s)", r.Client, r.Status, r.Reason)
			continue
		}
		compared++
		diffs, tools := surfaceDisagreements(v, *r.Surface, r.Tools, srv.tool)
		t.Logf("%s: %d tools compared", r.Client, tools)
		if tools == 0 {
			t.Errorf("%s: no tool compared", r.Client)
		}
		for _, d := range diffs {
			t.Errorf("%s: %s%s", r.Client, d, startup(r))
		}
	}
	if compared == 0 {
		t.Error("no client was compared")
	}
}

// checkSurface is check's views of the server for client spec; false
// when check has no profile of spec.
func checkSurface(t *testing.T, spec string, command []string) ([]assess.View, bool) {
	t.Helper()
	rep, failed, _ := checkProfile(t, spec, command)
	if failed != "" || len(rep.Servers) != 1 || len(rep.Servers[0].Views) == 0 {
		t.Logf("check -profile %s: no view: %s", spec, failed)
		return nil, false
	}
	return rep.Servers[0].Views, true
}

// surfaceDisagreements lists where run's facts f differ from check's view
// v, each with both values. A tool the client never defined but named, or
// any it never defined when it deferred tools (a deferred tool the run did
// not load: Claude Code, Qwen Code, Droid), was not measured.
func surfaceDisagreements(v assess.View, f analyze.SurfaceFacts, tools []analyze.ToolFacts, called string) (out []string, compared int) {
	named := map[string]bool{}
	for _, t := range tools {
		named[t.Name] = t.Via != ""
	}
	// A client that loaded a tool it deferred (ToolSearch) defined only
	// those the run called: the others, named in its list, were not
	// measured, whatever name the list gave them.
	deferring := slices.ContainsFunc(f.Tools, func(d surface.ToolDef) bool { return d.Via == surface.ViaLater || d.Via == surface.ViaLoaded })
	fates := map[string]assess.SurfaceFate{}
	for _, sf := range v.Surface {
		fates[sf.Tool] = sf
	}
	for _, t := range f.Tools {
		sf, ok := fates[t.Tool]
		if !ok {
			continue // listed to the client, not to check (server-everything lists by the client's capabilities)
		}
		name := t.Name
		if t.Namespace != "" {
			name = t.Namespace + "__" + t.Name
		}
		sent := t.Via != surface.ViaNone
		if !sent && (named[t.Tool] || deferring) {
			continue
		}
		compared++
		switch sf.NameFate {
		case profiles.FateKept:
			if !sent || name != sf.Name {
				out = append(out, "tool "+t.Tool+": check predicts the name "+sf.Name+" kept, run saw "+orNotSent(name, sent))
			}
		case profiles.FateRewritten:
			if !sent || name == sf.Name {
				out = append(out, "tool "+t.Tool+": check predicts "+sf.Name+" renamed, run saw "+orNotSent(name, sent))
			}
		case profiles.FateCut:
			if !sent || utf8.RuneCountInString(name) != sf.CutTo {
				out = append(out, "tool "+t.Tool+": check predicts "+sf.Name+" cut to "+strconv.Itoa(sf.CutTo)+", run saw "+orNotSent(name, sent))
			}
		case profiles.FateDropped:
			if sent {
				out = append(out, "tool "+t.Tool+": check predicts it not offered, run saw "+name)
			}
		}
		if !sent {
			continue
		}
		dropped, rewritten := runKeywords(t.Keywords, sf.Unmeasured)
		if !slices.Equal(dropped, sortedSet(sf.Dropped)) || !slices.Equal(rewritten, sortedSet(sf.Rewritten)) {
			out = append(out, "tool "+t.Tool+": check predicts the schema loses "+strings.Join(sortedSet(sf.Dropped), ", ")+
				" and has "+strings.Join(sortedSet(sf.Rewritten), ", ")+" rewritten; run saw "+strings.Join(dropped, ", ")+" lost and "+strings.Join(rewritten, ", ")+" rewritten")
		}
	}
	sf := fates[called]
	i := slices.IndexFunc(f.Calls, func(c surface.CallFacts) bool { return c.Tool == called })
	switch {
	case sf.Result == "" || strings.HasPrefix(sf.Result, assess.NotMeasured):
	case i < 0:
		out = append(out, "check predicts what of "+called+"'s result reaches the model ("+sf.Result+"); run made no call")
	default:
		if got := resultReached(f.Calls[i].Parts); got != sf.Result && !(got == "either" && sf.Result != "neither") {
			out = append(out, "check predicts the model gets "+sf.Result+" of "+called+"'s result; run found "+got)
		}
	}
	return out, compared
}

// resultReached is what of a result's content text and structuredContent
// reached the model, in check's words ("both", "content text",
// "structuredContent", "neither"); "either" when the two are one text
// (SameAs) and it reached.
func resultReached(parts []surface.Found) string {
	same := slices.ContainsFunc(parts, func(p surface.Found) bool { return p.SameAs != "" })
	text, structured := surface.Reached(parts)
	switch {
	case same && (text || structured):
		return "either"
	case text && structured:
		return "both"
	case text:
		return "content text"
	case structured:
		return "structuredContent"
	}
	return "neither"
}

// runKeywords are the keywords run saw dropped and rewritten, in check's
// words ("`kw`", "`kw` (top level)", a list of types as
// profiles.KeywordWords names it), each once, sorted; those check did not
// measure, and a description the client appended dropped keywords to
// (Copilot CLI: "…\n\n{minimum: 1, maximum: 10}", which check shows in
// the dropped keyword's example), are left out.
func runKeywords(ks []surface.KeywordFact, unmeasured []string) (dropped, rewritten []string) {
	for _, k := range ks {
		var sent any
		json.Unmarshal([]byte(k.Sent), &sent)
		w := profiles.KeywordWords(profiles.KeywordKey(k.Keyword, sent))
		if k.Path == "" {
			w += " (top level)"
		}
		if slices.ContainsFunc(unmeasured, func(u string) bool { return strings.HasPrefix(u, w) }) {
			continue
		}
		switch k.Fate {
		case surface.Dropped:
			dropped = append(dropped, w)
		case surface.Rewritten:
			if k.Keyword == "description" && strings.HasPrefix(strings.Trim(k.Became, `"`), strings.Trim(k.Sent, `"`)) {
				continue
			}
			rewritten = append(rewritten, w)
		}
	}
	return sortedSet(dropped), sortedSet(rewritten)
}

func sortedSet(ss []string) []string {
	out := slices.Clone(ss)
	slices.Sort(out)
	return slices.Compact(out)
}

func orNotSent(name string, sent bool) string {
	if !sent {
		return "it never defined"
	}
	return name
}
