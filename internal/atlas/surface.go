package atlas

import (
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
)

// The surface's properties (registry), read from the rows of the surface
// matrix (instrlab sweep -matrix surface; docs/surface.md): what of a
// result with both content text and structuredContent reaches the model,
// which input schema keywords the client drops, rewrites or adds, and the
// names it gives the lab's long tools. Each is read from what the client
// sent, the same under any load.

// readResultForm says which parts of result_both's result (content text
// and structuredContent, the same codeword sentence in each) reached the
// model in the request after the call.
func readResultForm(r analyze.Result) string {
	if r.Surface == nil {
		return "not measured"
	}
	i := slices.IndexFunc(r.Surface.Calls, func(c surface.CallFacts) bool { return c.Tool == "result_both" })
	if i < 0 {
		return "did not call result_both"
	}
	c := r.Surface.Calls[i]
	if !c.Reached {
		return "the call did not reach the server"
	}
	text, structured := surface.Reached(c.Parts)
	switch {
	case text && structured:
		return "both"
	case structured:
		return "structuredContent only"
	case text:
		return "content text only"
	}
	return "neither"
}

// readSchemaKeywords lists, over the schema tools the client defined, the
// keywords of their input schemas it dropped, rewrote or added, each once,
// and how many tools it never defined.
func readSchemaKeywords(r analyze.Result) string {
	if r.Surface == nil {
		return "not measured"
	}
	byFate := map[string][]string{}
	tools, unsent := 0, 0
	for _, t := range r.Surface.Tools {
		if !strings.HasPrefix(t.Tool, "schema_") {
			continue
		}
		tools++
		if t.Via == surface.ViaNone {
			unsent++
			continue
		}
		for _, k := range t.Keywords {
			if k.Fate != surface.Kept && !slices.Contains(byFate[k.Fate], k.Keyword) {
				byFate[k.Fate] = append(byFate[k.Fate], k.Keyword)
			}
		}
	}
	if tools == 0 {
		return "not measured"
	}
	var parts []string
	for _, fate := range []string{surface.Dropped, surface.Rewritten, surface.Added} {
		if ks := byFate[fate]; len(ks) > 0 {
			slices.Sort(ks)
			parts = append(parts, fate+": "+strings.Join(ks, ", "))
		}
	}
	if unsent > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d tools not sent", unsent, tools))
	}
	if len(parts) == 0 {
		return "all kept"
	}
	return strings.Join(parts, "; ")
}

// readToolNames says what the client named the lab's tools of 60 and 128
// characters: whole (with the prefix it put before them, the server's name
// as {server}), cut to a length, or not offered.
func readToolNames(r analyze.Result) string {
	if r.Surface == nil {
		return "not measured"
	}
	var parts []string
	prefix, namespace := "", ""
	for _, name := range []string{labvocab.NameLong, labvocab.NameMax} {
		i := slices.IndexFunc(r.Surface.Tools, func(t surface.ToolDef) bool { return t.Tool == name })
		var fate string
		switch {
		case i < 0:
			fate = "not listed"
		case r.Surface.Tools[i].Via == surface.ViaNone:
			fate = "not offered"
		case strings.HasSuffix(r.Surface.Tools[i].Name, name):
			fate = "whole"
			if prefix == "" {
				prefix = strings.TrimSuffix(r.Surface.Tools[i].Name, name)
			}
			namespace = r.Surface.Tools[i].Namespace
		default:
			fate = fmt.Sprintf("cut to %d", len([]rune(r.Surface.Tools[i].Name)))
		}
		parts = append(parts, fmt.Sprintf("%d: %s", len(name), fate))
	}
	out := strings.Join(parts, "; ")
	if prefix != "" {
		out += "; prefix " + strings.Replace(prefix, matrix.ServerName, "{server}", 1)
	}
	if namespace != "" {
		out += "; namespace " + strings.Replace(namespace, matrix.ServerName, "{server}", 1)
	}
	return out
}
