package assess

import (
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// A TextsFate is what a profile's surface (profiles.Texts, measured in
// the surface rows prompts, meta and resources) predicts of a server's
// prompts and resources: Declared are those of the two the server
// declares in its capabilities; the rest is the profile's measurement
// (profiles.Text*), "" where not measured.
type TextsFate struct {
	Declared  []string `json:"declared"`
	Prompts   string   `json:"prompts,omitempty"`
	Resources string   `json:"resources,omitempty"`
	Read      string   `json:"read,omitempty"`
	ReadTools []string `json:"read_tools,omitempty"`
	Runs      int      `json:"runs"`
}

// textsFate is what p predicts of the prompts and resources era e's server
// declares; nil when it declares neither or p did not measure them.
func textsFate(p profiles.Profile, e probe.EraResult) *TextsFate {
	if p.Surface == nil || p.Surface.Texts == nil {
		return nil
	}
	t := p.Surface.Texts
	f := &TextsFate{Runs: t.Runs}
	if slices.Contains(e.Capabilities, "prompts") {
		f.Declared, f.Prompts = append(f.Declared, "prompts"), t.Prompts
	}
	if slices.Contains(e.Capabilities, "resources") {
		f.Declared, f.Resources, f.Read, f.ReadTools = append(f.Declared, "resources"), t.Resources, t.Read, t.ReadTools
	}
	if len(f.Declared) == 0 {
		return nil
	}
	return f
}

// textsFindings reports, for view v, what the client does with the
// prompts and resources the server declares (info): whether it asks for
// them, whether any of their texts reach the model, and whether a
// resource does when the model reads it with the client's own tool.
func textsFindings(l *findingList, v View) {
	f := v.Texts
	if f == nil {
		return
	}
	var says []string
	for _, k := range []struct{ list, fate string }{{"prompts", f.Prompts}, {"resources", f.Resources}} {
		if !slices.Contains(f.Declared, k.list) {
			continue
		}
		switch k.fate {
		case profiles.TextsUnasked:
			says = append(says, "does not ask for your "+k.list+" on its own")
		case profiles.TextsHidden:
			says = append(says, "asks for your "+k.list+" and puts none of their texts (names, titles, descriptions) in front of the model")
		case profiles.TextsShown:
			says = append(says, "puts texts of your "+k.list+" in a model request")
		case profiles.FateVaries:
			says = append(says, k.list+": the runs disagree")
		default:
			says = append(says, k.list+" "+NotMeasured)
		}
	}
	if slices.Contains(f.Declared, "resources") {
		switch f.Read {
		case profiles.TextsWhole:
			says = append(says, "a resource reaches the model whole when the model reads it with the client's own resource tool")
		case profiles.TextsCut:
			says = append(says, "a resource the model reads with the client's own resource tool reaches it cut")
		case profiles.TextsHidden:
			says = append(says, "a resource the model reads with the client's own resource tool does not reach it")
		case profiles.TextsNoTool:
			says = append(says, "the client offers the model no tool to read a resource, so none reaches it")
		}
	}
	l.of(v, TextsUnseen, "texts", "the server declares %s: the client %s (measured, %d runs)", strings.Join(f.Declared, " and "), strings.Join(says, "; "), f.Runs).
		lose("%s: %s", strings.Join(f.Declared, " and "), strings.Join(says[:min(1, len(says))], ""))
}

// textsWords is the profile's texts for its fact line, "" when not
// measured.
func textsWords(t *profiles.Texts) string {
	if t == nil {
		return "prompts and resources " + NotMeasured
	}
	or := func(v string) string {
		if v == "" {
			return NotMeasured
		}
		return v
	}
	words := "prompts: " + or(t.Prompts) + "; resources: " + or(t.Resources) + "; tool titles and _meta: " + or(t.ToolMeta) + "; a resource read with the client's tool: " + or(t.Read)
	if len(t.ReadTools) > 0 {
		words += " (" + strings.Join(t.ReadTools, ", ") + ")"
	}
	return words
}
