package derive

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// apart splits the runs of the lab's surface (a row of the surface
// matrix) from the others: they measure the surface, and nothing of the
// instructions the other runs measure.
func apart(all []run) (others, surf []run) {
	return apartBy(all, func(r run) bool { return r.Row.Surface != "" })
}

// deriveSurface is what the runs of the lab's surface show (nil when
// there are none): the form of each result case, each input-schema
// keyword, and the tools' names, from the runs of the rows that measure
// them. model0 is the profile's model.
func deriveSurface(runs []run, ev Evidence, model0 string) *profiles.Surface {
	if len(runs) == 0 {
		return nil
	}
	s := &profiles.Surface{}
	var measured, renamed []run
	for _, r := range runs {
		if r.Surface == nil {
			continue
		}
		switch lab.SurfaceGroup(r.Row.Surface) {
		case lab.SurfaceResults:
			resultForms(s, r.Surface.Calls)
		case lab.SurfaceBad:
			// Evidence from before the bad row had its non-object
			// results measures nothing here.
			if !resultForms(s, r.Surface.Calls) {
				continue
			}
		case lab.SurfaceSchemas:
			schemaKeywords(s, r.Surface.Tools)
		case lab.SurfaceNames:
			if len(profiles.CharKinds(runServer(r))) > 0 {
				renamed = append(renamed, r) // read once the prefix is known
				continue
			}
			names(s, r, r.Surface.Tools)
		case lab.SurfaceReserved:
			if !reserved(s, r.Surface.Tools, r.Surface.Calls) {
				continue
			}
		case lab.SurfacePrompts, lab.SurfaceMeta:
			if !texts(s, r) {
				continue
			}
		default:
			continue
		}
		measured = append(measured, r)
	}
	for _, r := range renamed {
		if serverNames(s.Names, r) {
			measured = append(measured, r)
		}
	}
	s.Runs = len(measured)
	// A model the evidence does not name is not the profile's: the
	// surface runs of a client that calls tools with another model (Codex
	// 0.171.0's local-model) would read as its default's.
	if m, err := modelOf(measured, ev); err != nil {
		s.Model = ModelUnknown
	} else if m != model0 {
		s.Model = m
	}
	sort.Slice(s.Schema, func(i, j int) bool { return s.Schema[i].Keyword < s.Schema[j].Keyword })
	if s.Texts != nil && s.Texts.Runs == 0 {
		s.Texts = nil
	}
	if len(s.Results) == 0 && len(s.Schema) == 0 && s.Names == nil && s.Texts == nil && s.Reserved == nil {
		return nil
	}
	return s
}

// ModelUnknown is a Surface's Model when no surface run's evidence named
// the model its requests asked for.
const ModelUnknown = "not recorded"

// surfaceSays is the evidence line's words on the surface, "" when not
// measured.
func surfaceSays(s *profiles.Surface) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("; tool results, input schemas, tool names, prompts and resources from %d runs of the surface matrix", s.Runs)
}

// resultCases are the lab's tools whose results are the cases of a
// ResultForm.
var resultCases = map[string]string{
	"result_text":       profiles.ResultContent,
	"result_structured": profiles.ResultStructured,
	"result_both":       profiles.ResultBoth,
	"result_outschema":  profiles.ResultOutSchema,
	"result_image":      profiles.ResultImage,
	// The bad row's results whose structuredContent is not an object.
	"bad_null_structured":   profiles.ResultNullStructured,
	"bad_string_structured": profiles.ResultStringStructured,
	"bad_array_structured":  profiles.ResultArrayStructured,
}

// resultForms adds the form of each case whose call reached the server and
// whose result a following request carried, and says whether there was
// one.
func resultForms(s *profiles.Surface, calls []surface.CallFacts) bool {
	added := false
	for _, c := range calls {
		kase, ok := resultCases[c.Tool]
		if !ok || !c.Reached || c.Following == 0 {
			continue
		}
		added = true
		var content, structured, image string
		for _, p := range c.Parts {
			fate := profiles.FateDropped
			if p.Reached {
				fate = profiles.FateKept
			}
			switch {
			case p.Part == "structuredContent":
				structured = fate
			case strings.HasPrefix(p.Part, "content[") && p.SentForm == surface.FormText:
				content = fate
			case strings.HasPrefix(p.Part, "content[") && p.SentForm == surface.FormImage:
				image = fate
			}
		}
		f := s.Result(kase)
		if f == nil {
			s.Results = append(s.Results, profiles.ResultForm{Case: kase, Tool: c.Tool})
			f = &s.Results[len(s.Results)-1]
			f.Content, f.Structured, f.Image = content, structured, image
		}
		f.Runs++
		f.Content, f.Structured, f.Image = agree(f.Content, content), agree(f.Structured, structured), agree(f.Image, image)
	}
	order := []string{profiles.ResultContent, profiles.ResultStructured, profiles.ResultBoth, profiles.ResultOutSchema, profiles.ResultImage,
		profiles.ResultNullStructured, profiles.ResultStringStructured, profiles.ResultArrayStructured}
	slices.SortFunc(s.Results, func(a, b profiles.ResultForm) int {
		return slices.Index(order, a.Case) - slices.Index(order, b.Case)
	})
	return added
}

// agree is a fate measured again: the same, or "varies".
func agree(was, now string) string {
	if was == now {
		return was
	}
	return profiles.FateVaries
}

// schemaKeywords adds what became of each keyword of the input schema of
// each of the lab's schema tools the client sent: every keyword the
// server's schema holds (labvocab.SchemaFeatures, profiles.SchemaKeywords), at
// the top level or inside,
// kept unless the comparison found it dropped or rewritten; a keyword
// inside one dropped or rewritten whole is not measured on its own. Of
// several fates, one dropped beats rewritten beats kept; the example is
// the first drop or rewrite.
func schemaKeywords(s *profiles.Surface, tools []surface.ToolDef) {
	for _, t := range tools {
		f, ok := schemaFeature(t.Tool)
		if !ok || t.Via == surface.ViaNone {
			continue
		}
		// The keywords are the lab's whatever its description's text.
		var sent any
		json.Unmarshal(f.Schema(""), &sent)
		for _, at := range profiles.SchemaKeywords(sent) {
			fate, fact := profiles.FateKept, (*surface.KeywordFact)(nil)
			covered := false
			for i, k := range t.Keywords {
				switch {
				case k.Path == at.Path && k.Keyword == at.Keyword:
					fate, fact = k.Fate, &t.Keywords[i]
				case k.Fate != surface.Kept && k.Fate != surface.Added && within(at.Path, k):
					covered = true
				}
			}
			if covered || fate == surface.Added {
				continue
			}
			addKeyword(s, t.Tool, at, fate, fact)
		}
	}
}

// schemaFeature is the lab's schema feature of the tool named tool.
func schemaFeature(tool string) (labvocab.SchemaFeature, bool) {
	for _, f := range labvocab.SchemaFeatures {
		if "schema_"+strings.ReplaceAll(f.Name, "-", "_") == tool {
			return f, true
		}
	}
	return labvocab.SchemaFeature{}, false
}

// within reports whether the schema at path lies inside what fact k is
// about (a keyword's value, or a named schema dropped whole).
func within(path string, k surface.KeywordFact) bool {
	at := k.Path + "/" + k.Keyword
	if k.Keyword == "(schema)" {
		at = k.Path
	}
	return strings.HasPrefix(path+"/", at+"/")
}

var fateRank = map[string]int{profiles.FateKept: 0, profiles.FateRewritten: 1, profiles.FateDropped: 2}

func addKeyword(s *profiles.Surface, tool string, at profiles.KeywordAt, fate string, fact *surface.KeywordFact) {
	k := s.Keyword(at.Key)
	if k == nil {
		s.Schema = append(s.Schema, profiles.SchemaKeyword{Keyword: at.Key})
		k = &s.Schema[len(s.Schema)-1]
	}
	level := &k.Nested
	if at.Top() {
		level = &k.Top
	}
	if *level != "" && fateRank[*level] >= fateRank[fate] {
		return
	}
	*level = fate
	if fact != nil && fate != profiles.FateKept && k.Tool == "" {
		k.Tool, k.Sent, k.Became = tool, fact.Sent, fact.Became
	}
}

// The lab's tools of the names group, by what their name measures.
var (
	nameLengths = []string{labvocab.NameLong, labvocab.NameMax}
	nameChars   = map[string]string{labvocab.NameDotted: profiles.NameDot, labvocab.NameHyphen: profiles.NameHyphen, labvocab.NameUpper: profiles.NameUpper, labvocab.NameUnicode: profiles.NameNonASCII, labvocab.NamePrefix: profiles.NamePrefix, labvocab.NamePrefixed: profiles.NamePrefixed}
)

// names adds what became of the names of the lab's names tools in run r:
// the prefix, from a tool named whole behind it; each long name kept, cut
// or dropped (no request defined it and no loader gave its definition);
// each name with dots, hyphens, upper case or non-ASCII letters kept,
// rewritten or dropped.
func names(s *profiles.Surface, r run, tools []surface.ToolDef) {
	server := runServer(r)
	n := s.Names
	if n == nil {
		n = &profiles.Names{Server: server, Prefix: "?"}
	}
	for _, t := range tools {
		if t.Via == surface.ViaNone || nameChars[t.Tool] == "" && !slices.Contains(nameLengths, t.Tool) {
			continue
		}
		if n.Prefix != "?" {
			break
		}
		switch {
		case t.Namespace != "" && t.Name == t.Tool:
			n.Prefix, n.Namespace = "", strings.Replace(t.Namespace, server, "{server}", 1)
		case fakeapi.ToolNamed(t.Name, t.Tool):
			n.Prefix = strings.Replace(strings.TrimSuffix(t.Name, t.Tool), server, "{server}", 1)
		}
	}
	if n.Prefix == "?" {
		return // no name was kept whole behind a prefix: nothing to measure lengths by
	}
	prefix := utf8.RuneCountInString(n.PrefixFor(server))
	for _, t := range tools {
		chars := utf8.RuneCountInString(t.Tool)
		if slices.Contains(nameLengths, t.Tool) {
			l := profiles.NameLength{Tool: t.Tool, Chars: chars, Full: prefix + chars, Fate: profiles.FateDropped, Runs: 1}
			if t.Via != surface.ViaNone {
				l.Name, l.Got = t.Name, prefix+utf8.RuneCountInString(t.Name)
				if n.Namespace == "" {
					l.Got = utf8.RuneCountInString(t.Name)
				}
				l.Fate = profiles.FateKept
				if !fakeapi.ToolNamed(t.Name, t.Tool) && !(n.Namespace != "" && t.Name == t.Tool) {
					l.Fate = profiles.FateCut
					l.Hash = hashed(t.Name, t.Tool)
				}
			}
			n.Lengths = addLength(n.Lengths, l)
		}
		if kind := nameChars[t.Tool]; kind != "" {
			c := profiles.NameChars{Kind: kind, Tool: t.Tool, Fate: profiles.FateDropped, Runs: 1}
			if t.Via != surface.ViaNone {
				c.Fate, c.Name = profiles.FateKept, t.Name
				if !fakeapi.ToolNamed(t.Name, t.Tool) && !(n.Namespace != "" && t.Name == t.Tool) {
					c.Fate = profiles.FateRewritten
				}
			}
			n.Chars = addChars(n.Chars, c)
		}
	}
	s.Names = n
}

// runServer is the name of run r's lab server.
func runServer(r run) string {
	if ls := r.Row.LabServers(); len(ls) > 0 {
		return ls[0].Name
	}
	return matrix.ServerName
}

// serverNames adds what became of the name of run r's lab server, named
// with characters a client may rewrite (surface-names-server), in the
// prefix n measured with the plain lab: the text between the prefix's
// parts before each tool the client named (a namespace and "__" for a
// client that defines tools in one) is the server's name as the client
// wrote it, kept or rewritten, per kind of character in it. It reads
// nothing (false) where the prefix holds no server name, was not
// measured, or no tool of the run was named behind it.
func serverNames(n *profiles.Names, r run) bool {
	server := runServer(r)
	if n == nil || !strings.Contains(n.Prefix+n.Namespace, "{server}") {
		return false
	}
	pattern := n.Prefix
	if n.Namespace != "" {
		pattern = n.Namespace + "__"
	}
	before, after, _ := strings.Cut(pattern, "{server}")
	got := ""
	for _, t := range r.Surface.Tools {
		name := t.Name
		if t.Namespace != "" {
			name = t.Namespace + "__" + t.Name
		}
		if t.Via == surface.ViaNone || !slices.Contains(nameLengths, t.Tool) && nameChars[t.Tool] == "" {
			continue
		}
		mid, ok := strings.CutPrefix(name, before)
		if mid, ok2 := strings.CutSuffix(mid, after+t.Tool); ok && ok2 && mid != "" {
			if got != "" && got != mid {
				return false // two tools, two names: not one rule
			}
			got = mid
		}
	}
	if got == "" {
		return false
	}
	for _, kind := range profiles.CharKinds(server) {
		c := profiles.NameChars{Kind: kind, Tool: server, Fate: profiles.FateKept, Name: got, Runs: 1}
		if got != server {
			c.Fate = profiles.FateRewritten
		}
		n.Servers = addChars(n.Servers, c)
	}
	return true
}

// reserved adds what became of the lab's tools named as clients name
// their own in a run: each one the client offered the model under no
// name (no request defined it, no loader gave its definition, no text
// listed it behind the server's prefix) while it offered others is
// hidden; each one it defined, whose call by the name it defined never
// reached the server, is shadowed. A run in which none was offered measures
// nothing (a server not up in time, a client that defers them all).
func reserved(s *profiles.Surface, tools []surface.ToolDef, calls []surface.CallFacts) bool {
	offered := slices.ContainsFunc(tools, func(t surface.ToolDef) bool {
		return t.Via != surface.ViaNone && slices.Contains(labvocab.ReservedNames, t.Tool)
	})
	if !offered {
		return false
	}
	if s.Reserved == nil {
		s.Reserved = &profiles.Reserved{}
	}
	for _, t := range tools {
		if !slices.Contains(labvocab.ReservedNames, t.Tool) {
			continue
		}
		if !slices.Contains(s.Reserved.Measured, t.Tool) {
			s.Reserved.Measured = append(s.Reserved.Measured, t.Tool)
		}
		if t.Via == surface.ViaNone && !t.Listed && !slices.Contains(s.Reserved.Hidden, t.Tool) {
			s.Reserved.Hidden = append(s.Reserved.Hidden, t.Tool)
		}
		shadowed := t.Via != surface.ViaNone && slices.ContainsFunc(calls, func(c surface.CallFacts) bool {
			return c.Tool == t.Tool && c.Name == t.Name && c.Namespace == t.Namespace && c.Deferred == "" && !c.Reached
		})
		if shadowed && !slices.Contains(s.Reserved.Shadowed, t.Tool) {
			s.Reserved.Shadowed = append(s.Reserved.Shadowed, t.Tool)
		}
	}
	s.Reserved.Runs++
	return true
}

// hashed reports whether a cut name ends in '_' and a hash or suffix of
// letters and digits that is not the end of the server's name.
func hashed(got, tool string) bool {
	i := strings.LastIndexByte(got, '_')
	if i < 0 || strings.HasSuffix(tool, got[i:]) {
		return false
	}
	return strings.IndexFunc(got[i+1:], func(r rune) bool { return r >= '0' && r <= '9' }) >= 0
}

func addLength(ls []profiles.NameLength, l profiles.NameLength) []profiles.NameLength {
	for i := range ls {
		if ls[i].Tool == l.Tool {
			ls[i].Runs++
			if ls[i].Fate != l.Fate || ls[i].Got != l.Got {
				ls[i].Fate = profiles.FateVaries
			}
			return ls
		}
	}
	return append(ls, l)
}

func addChars(cs []profiles.NameChars, c profiles.NameChars) []profiles.NameChars {
	for i := range cs {
		if cs[i].Tool == c.Tool && cs[i].Kind == c.Kind {
			cs[i].Runs++
			if cs[i].Fate != c.Fate || cs[i].Name != c.Name {
				cs[i].Fate = profiles.FateVaries
			}
			return cs
		}
	}
	return append(cs, c)
}

// texts adds what run r (a row of the prompts group, with or without the
// model reading through the client's resource tools, or of the meta
// group) shows of the server's other texts; false when it shows nothing.
// Runs that disagree make a kind FateVaries.
func texts(s *profiles.Surface, r run) bool {
	f := r.Surface
	if s.Texts == nil {
		s.Texts = &profiles.Texts{}
	}
	t := s.Texts
	measured := false
	set := func(field *string, v string) {
		measured = measured || v != ""
		switch {
		case v == "":
		case *field == "":
			*field = v
		case *field != v:
			*field = profiles.FateVaries
		}
	}
	shown := func(list string) string {
		if slices.Contains(f.Unasked, list) {
			return profiles.TextsUnasked
		}
		v := ""
		for _, x := range f.Texts {
			switch {
			case x.List != list || x.Undefined:
			case x.Reached:
				return profiles.TextsShown
			default:
				v = profiles.TextsHidden
			}
		}
		return v
	}
	switch {
	case lab.SurfaceGroup(r.Row.Surface) == lab.SurfaceMeta:
		set(&t.ToolMeta, shown(surface.ListTools))
	case len(r.Row.Script) == 0: // the prompts row: what the client does unasked
		set(&t.Prompts, shown(surface.ListPrompts))
		set(&t.Resources, shown(surface.ListResources))
	default: // the resources row: the model reads through the client's tools
		read := profiles.TextsNoTool
		for _, rd := range f.Reads {
			switch {
			case !rd.Reached:
				read = profiles.TextsHidden
			case !rd.Full:
				read = profiles.TextsCut
			default:
				read = profiles.TextsWhole
			}
		}
		set(&t.Read, read)
		for _, c := range f.OwnCalls {
			if !slices.Contains(t.ReadTools, c) {
				t.ReadTools = append(t.ReadTools, c)
			}
		}
	}
	if !measured {
		return false
	}
	t.Runs++
	return true
}
