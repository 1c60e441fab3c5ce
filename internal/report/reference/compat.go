package reference

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/internal/table"
)

// CompatFile is the reference in browser-compat-data's shape, which
// linters and documentation sites already read: a feature tree (group,
// then feature), each leaf's __compat.support keyed by client, and the
// clients with their releases. A span of versions comes from an atlas's
// segments where the client's history was swept; elsewhere a statement
// holds at the profiled version only ("≤V", BCD's ranged version: added
// in V or before).
type CompatFile struct {
	Meta    CompatMeta                          `json:"__meta"`
	Clients map[string]CompatClient             `json:"clients"`
	MCP     map[string]map[string]CompatFeature `json:"mcp"`
}

// CompatMeta says what made the file and where its evidence paths lie.
type CompatMeta struct {
	Command string `json:"command"`
	// EvidenceBase is the URL the evidence paths of the notes resolve
	// under (the repository's files); "" when the file was written
	// without one: paths from the repository's root.
	EvidenceBase string `json:"evidence_base"`
}

// A CompatClient is a client as BCD's browsers files list one.
type CompatClient struct {
	Name string `json:"name"`
	// Releases are the versions measured (profiled or swept), each
	// with its status: "current" for the newest, else "retired".
	Releases map[string]CompatRelease `json:"releases"`
}

// A CompatRelease is one release of a client: its status, and the day
// npm published it where a sweep of the atlas listed it (a version only
// profiled has none).
type CompatRelease struct {
	ReleaseDate string `json:"release_date,omitempty"`
	Status      string `json:"status"`
}

// A CompatFeature is a leaf of the tree.
type CompatFeature struct {
	Compat Compat `json:"__compat"`
}

// Compat is a feature's description and its support per client.
type Compat struct {
	Description string                   `json:"description"`
	Support     map[string][]SupportStep `json:"support"`
}

// A SupportStep is one of BCD's simple support statements. One with
// Flags holds only when they are set (BCD's flagged statement); with
// version_added false it says the feature is not supported so.
type SupportStep struct {
	VersionAdded          Added        `json:"version_added"`
	VersionRemoved        string       `json:"version_removed,omitempty"`
	PartialImplementation bool         `json:"partial_implementation,omitempty"`
	Flags                 []CompatFlag `json:"flags,omitempty"`
	Notes                 []string     `json:"notes,omitempty"`
}

// A CompatFlag is one of BCD's flags: a runtime flag (Type "runtime_flag") of
// the client, Name FlagModel (the model it runs, as its --model or its
// config names it) or FlagApproval (its approval mode), set to
// ValueToSet.
type CompatFlag struct {
	Type       string `json:"type"`
	Name       string `json:"name"`
	ValueToSet string `json:"value_to_set"`
}

// The flags a statement may carry (CompatFlag.Name).
const (
	FlagModel    = "model"
	FlagApproval = "approval mode"
)

// preApproved is the approval mode of the matrix's way (CompatFlag.ValueToSet):
// every tool of the run's servers approved beforehand, as the client's
// own approve-all flag or settings do.
const preApproved = "every tool approved beforehand"

// Added is a version_added: a version, or "" for BCD's false (not
// supported in any version measured).
type Added string

// MarshalJSON writes "" as false.
func (a Added) MarshalJSON() ([]byte, error) {
	if a == "" {
		return []byte("false"), nil
	}
	return json.Marshal(string(a))
}

// support is what a client version does with a feature, in BCD's terms.
type support struct {
	yes, partial bool
	note         string
}

// A compatFeature reads a feature from a profile, and from an atlas
// segment where one of its properties holds it (prop "" when no atlas
// property does).
type compatFeature struct {
	group, name, description string
	prop                     string
	fromProfile              func(p profiles.Profile) (support, bool)
	fromSegment              func(v string) support
	// known, when set, says whether a segment's value measured the
	// feature at all ("did not call result_both" did not).
	known func(v string) bool
	// modes, when set, are the feature's statements in approval modes
	// other than the one fromProfile reads, each flagged.
	modes func(p profiles.Profile) []flagged
}

// flagged is what a client version does with a feature with a flag set.
type flagged struct {
	flag CompatFlag
	s    support
}

// resultMeasured is whether a result-form value measured what reached the
// model.
func resultMeasured(v string) bool {
	return v == "both" || v == "content text only" || v == "structuredContent only" || v == "neither"
}

var compatFeatures = []compatFeature{
	{group: "instructions", name: "used", description: "The server's instructions reach the model.",
		prop: "uses",
		fromProfile: func(p profiles.Profile) (support, bool) {
			if p.Render.Placement == "" {
				return support{}, false
			}
			return support{yes: !p.Render.Unused}, true
		},
		fromSegment: func(v string) support { return support{yes: v == "yes"} }},
	{group: "instructions", name: "whole", description: "The instructions reach the model whole (up to the longest text measured); partial: cut at a cap, said in the note.",
		prop: "cap",
		fromProfile: func(p profiles.Profile) (support, bool) {
			switch {
			case p.Render.Unused:
				return support{}, true
			case p.Instructions.Cap > 0:
				return support{yes: true, partial: true, note: kept(p.Instructions)}, true
			case p.Instructions.AtLeast > 0:
				return support{yes: true}, true
			}
			return support{}, false
		},
		fromSegment: func(v string) support {
			switch {
			case strings.HasPrefix(v, "none up to"):
				return support{yes: true}
			case strings.HasSuffix(v, " characters"):
				return support{yes: true, partial: true, note: "cut at " + v}
			}
			return support{}
		}},
	{group: "handshake", name: "server_discover", description: "The client sends server/discover first (the 2026-07-28 era) over stdio.",
		prop:        "probe",
		fromProfile: func(p profiles.Profile) (support, bool) { return support{yes: p.Handshake.ProbeStdio}, true },
		fromSegment: func(v string) support { return support{yes: v == "server/discover first"} }},
	{group: "startup", name: "waits_for_slow_server", description: "The first model request waits for a server that answers initialize late (held 3-8 s).",
		prop: "slow-server",
		fromProfile: func(p profiles.Profile) (support, bool) {
			if p.Startup.Waited == nil {
				return support{}, false
			}
			return support{yes: *p.Startup.Waited}, true
		},
		fromSegment: func(v string) support { return support{yes: strings.HasPrefix(v, "waits")} },
		// A client that never sends the text does not show whether it
		// waited; its profile's runs timed the first request instead.
		known: func(v string) bool { return v != "does not wait (text never arrives)" }},
	{group: "tool_results", name: "content_text_beside_structured", description: "Of a result with content text and structuredContent, the content text reaches the model.",
		prop:        "result-form",
		fromProfile: resultPart(func(r *profiles.ResultForm) string { return r.Content }),
		fromSegment: func(v string) support { return support{yes: v == "both" || v == "content text only"} },
		known:       resultMeasured},
	{group: "tool_results", name: "structured_content", description: "Of a result with content text and structuredContent, the structuredContent reaches the model.",
		prop:        "result-form",
		fromProfile: resultPart(func(r *profiles.ResultForm) string { return r.Structured }),
		fromSegment: func(v string) support { return support{yes: v == "both" || v == "structuredContent only"} },
		known:       resultMeasured},
	{group: "tool_results", name: "image", description: "An image content part of a tool's result reaches the model as an image.",
		fromProfile: resultPartOf(profiles.ResultImage, func(r *profiles.ResultForm) string { return r.Image })},
}

func resultPart(part func(*profiles.ResultForm) string) func(profiles.Profile) (support, bool) {
	return resultPartOf(profiles.ResultBoth, part)
}

// resultPartOf reads one part of the result of case c.
func resultPartOf(c string, part func(*profiles.ResultForm) string) func(profiles.Profile) (support, bool) {
	return func(p profiles.Profile) (support, bool) {
		r := p.Surface.Result(c)
		if r == nil || part(r) == "" {
			return support{}, false
		}
		f := part(r)
		return support{yes: f != profiles.FateDropped, partial: f == profiles.FateCut, note: ifNot(f == profiles.FateKept, f)}, true
	}
}

func ifNot(b bool, s string) string {
	if b {
		return ""
	}
	return s
}

// keywordFeatures are a feature per input-schema keyword any profile
// measured inside a schema: kept, rewritten (partial) or dropped.
func keywordFeatures(ps []profiles.Profile) []compatFeature {
	var names []string
	for _, p := range ps {
		if p.Surface == nil {
			continue
		}
		for _, k := range p.Surface.Schema {
			if k.Nested != "" && !slices.Contains(names, k.Keyword) {
				names = append(names, k.Keyword)
			}
		}
	}
	slices.Sort(names)
	var fs []compatFeature
	for _, n := range names {
		fs = append(fs, compatFeature{group: "input_schema", name: n, description: "The keyword " + n + " inside a tool's input schema reaches the model as the server wrote it; partial: rewritten.",
			fromProfile: func(p profiles.Profile) (support, bool) {
				k := p.Surface.Keyword(n)
				if k == nil || k.Nested == "" {
					return support{}, false
				}
				s := support{yes: k.Nested != profiles.FateDropped, partial: k.Nested == profiles.FateRewritten}
				if s.partial && k.Became != "" {
					s.note = "rewritten: " + k.Sent + " became " + k.Became
				}
				return s, true
			}})
	}
	return fs
}

// approvalFeatures are a feature per class of a tool's annotations: a
// call of such a tool runs (the server gets it, the model its result) in
// the client's default approval mode, with no tool approved beforehand;
// its other modes, and the matrix's way, as flagged statements.
var approvalFeatures = func() []compatFeature {
	var fs []compatFeature
	for _, c := range []struct{ hints, name, words string }{
		{profiles.HintsNone, "unannotated", "with neither readOnlyHint nor destructiveHint"},
		{profiles.HintsReadOnly, "read_only", "annotated readOnlyHint"},
		{profiles.HintsDestructive, "destructive", "annotated destructiveHint"},
	} {
		fs = append(fs, compatFeature{group: "approval", name: c.name,
			description: "A call of a tool " + c.words + " runs (the server gets it, the model its result) in the client's default headless approval mode, no tool approved beforehand; flagged: in its other approval modes. Not supported: refused, or no result, or the tool not offered, as the note says.",
			fromProfile: func(p profiles.Profile) (support, bool) {
				if a := p.Approval(profiles.ModeDefault); a != nil {
					return approvalSupport(*a, c.hints)
				}
				return support{}, false
			},
			modes: func(p profiles.Profile) []flagged {
				var out []flagged
				for _, a := range p.Approvals {
					mode := a.Mode
					switch {
					case mode == profiles.ModeDefault, mode == "" && a.Arm != "":
						continue // the main statement; a model's or an arm's runs
					case mode == "":
						mode = preApproved
					}
					if s, ok := approvalSupport(a, c.hints); ok {
						out = append(out, flagged{CompatFlag{"runtime_flag", FlagApproval, mode}, s})
					}
				}
				return out
			}})
	}
	return fs
}()

// approvalSupport is what became of the calls of the tools of one class
// of annotations in one approval mode: supported when every call ran,
// partly when some did; not measured when no call was made.
func approvalSupport(a profiles.Approval, hints string) (support, bool) {
	var ran, not []string
	for _, t := range a.Tools {
		if t.Hints != hints {
			continue
		}
		switch {
		case t.Fate == profiles.ApprovalRan:
			ran = append(ran, t.Tool)
		case t.Fate == profiles.FateVaries && t.Ran > 0:
			return support{yes: true, partial: true, note: t.Tool + " ran in " + table.Num(t.Ran) + " of " + table.Num(a.Runs) + " runs"}, true
		case t.Fate == profiles.ApprovalRefused && t.Told != "":
			not = append(not, t.Tool+" refused: the model is told "+strconv.Quote(t.Told))
		case t.Fate == profiles.ApprovalRefused, t.Fate == profiles.ApprovalNoResult, t.Fate == profiles.ApprovalNotOffered:
			not = append(not, t.Tool+" "+t.Fate)
		}
	}
	var note string
	if a.Model != "" {
		note = "with model " + a.Model + "; "
	}
	switch {
	case len(ran) > 0 && len(not) == 0:
		return support{yes: true, note: strings.TrimSuffix(note, "; ")}, true
	case len(ran) > 0:
		return support{yes: true, partial: true, note: note + strings.Join(not, "; ")}, true
	case len(not) > 0:
		return support{note: note + strings.Join(not, "; ")}, true
	}
	return support{}, false
}

// protocolFeatures are what a client does with what a server asks and
// announces while its tools run (profiles.Protocol), a group per protocol
// era: "protocol" over 2025-11-25 (initialize), "protocol_2026_07_28"
// over 2026-07-28, where a client's answer to an ask comes in its retry
// of an input_required call.
var protocolFeatures = func() []compatFeature {
	// unanswered is an ask the client did not answer with what it asked
	// for: not declared, an error, no answer, a result of another shape.
	unanswered := func(does string) bool {
		return does == labvocab.DoesNotDeclared || does == surface.AskNoAnswer || does == surface.AskMalformed || strings.HasPrefix(does, "error ")
	}
	answered := func(does string) (support, bool) {
		switch {
		case does == "accept":
			return support{yes: true}, true
		case does == "decline" || does == "cancel":
			return support{yes: true, partial: true, note: "answers " + does + ": the server gets no input"}, true
		case unanswered(does):
			return support{note: does}, true
		}
		return support{}, false
	}
	result := func(does string) (support, bool) {
		switch {
		case strings.HasPrefix(does, surface.AskResult): // "result", "result: 1 roots"
			return support{yes: true, note: ifNot(does == surface.AskResult, does)}, true
		case unanswered(does):
			return support{note: does}, true
		}
		return support{}, false
	}
	reaches := func(does string) (support, bool) {
		switch {
		case strings.HasPrefix(does, labvocab.DoesReaches):
			return support{yes: true}, true
		case strings.HasPrefix(does, labvocab.DoesNeverReaches):
			return support{note: does}, true
		}
		return support{}, false
	}
	features := []struct {
		feature, name, description string
		read                       func(does string) (support, bool)
	}{
		{labvocab.FeatureElicitForm, "elicitation_form", "The client answers a server's elicitation/create in form mode during a tool call; partial: it declines or cancels (a headless run cannot accept), said in the note.", answered},
		{labvocab.FeatureElicitURL, "elicitation_url", "The client answers a server's elicitation/create in URL mode during a tool call; partial: it declines or cancels, said in the note.", answered},
		{labvocab.FeatureSampling, "sampling", "The client answers a server's sampling/createMessage with a result.", result},
		{labvocab.FeatureRoots, "roots", "The client answers a server's roots/list with a result (the number of roots in the note).", result},
		{labvocab.FeatureLog, "log_message", "A notifications/message the server sends during a call reaches the model.", reaches},
		{labvocab.FeatureProgress, "progress", "A notifications/progress the server sends during a call reaches the model.", reaches},
		{labvocab.FeatureListChanged, "tools_list_changed", "After notifications/tools/list_changed, the model has the server's new tool with the call's result; partial: only in a later request.", func(does string) (support, bool) {
			switch does {
			case labvocab.DoesRelistsWith:
				return support{yes: true}, true
			case labvocab.DoesRelistsLater:
				return support{yes: true, partial: true, note: does}, true
			case labvocab.DoesRelistsNever, labvocab.DoesNoRelist, labvocab.DoesRestarts:
				return support{note: does}, true
			}
			return support{}, false
		}},
		{labvocab.FeatureResourceUpdated, "resources_updated", "The client subscribes to a resource (resources/subscribe) and, after notifications/resources/updated, reads it again and the model has its new text; partial: it reads it again but the new text does not reach the model.", func(does string) (support, bool) {
			switch does {
			case labvocab.DoesRereadsReaches:
				return support{yes: true}, true
			case labvocab.DoesRereadsNeverModel:
				return support{yes: true, partial: true, note: does}, true
			case labvocab.DoesNoSubscribe, labvocab.DoesSubscribesNoReread:
				return support{note: does}, true
			}
			return support{}, false
		}},
		{labvocab.FeatureAppOnly, "app_only_tool_hidden", "A tool whose _meta.ui.visibility is [\"app\"] (MCP Apps) is kept from the model.", func(does string) (support, bool) {
			switch does {
			case labvocab.DoesHidden:
				return support{yes: true}, true
			case labvocab.DoesOffered:
				return support{note: does}, true
			}
			return support{}, false
		}},
		{labvocab.FeatureHeader, "x_mcp_header", "The x-mcp-header keyword of a property of a tool's input schema reaches the model; partial: rewritten.", func(does string) (support, bool) {
			switch strings.TrimSuffix(does, labvocab.DoesInSchema) {
			case surface.Kept:
				return support{yes: true}, true
			case surface.Rewritten:
				return support{yes: true, partial: true, note: does}, true
			case surface.Dropped:
				return support{note: does}, true
			}
			return support{}, false
		}},
		{labvocab.FeatureTask, "task_required_tool", "A tool whose execution.taskSupport is \"required\" (2025-11-25 tasks) is called as a task, or, given a task, the client polls it until it completes and the model gets its result; partial: called as any tool, without a task.", func(does string) (support, bool) {
			switch {
			case does == labvocab.DoesTaskPolled+"; its result "+labvocab.DoesReaches:
				return support{yes: true}, true
			case strings.HasPrefix(does, labvocab.DoesTaskPolled):
				return support{yes: true, partial: true, note: does}, true
			case does == labvocab.DoesTaskPolls || does == labvocab.DoesTaskNoPoll:
				return support{note: does}, true
			}
			switch does {
			case labvocab.DoesCallsAsTask:
				return support{yes: true}, true
			case labvocab.DoesCallsPlain:
				return support{yes: true, partial: true, note: does}, true
			case labvocab.DoesNeverCalls, labvocab.DoesHidden:
				return support{note: does}, true
			}
			return support{}, false
		}},
	}
	var fs []compatFeature
	for _, era := range []struct {
		group  string
		modern bool
	}{{"protocol", false}, {"protocol_2026_07_28", true}} {
		for _, f := range features {
			fs = append(fs, compatFeature{group: era.group, name: f.name, description: f.description,
				fromProfile: func(p profiles.Profile) (support, bool) {
					fact, ok := p.Protocol.FactIn(era.modern, f.feature)
					if !ok || fact.Does == profiles.FateVaries {
						return support{}, false
					}
					return f.read(strings.TrimPrefix(fact.Does, labvocab.DoesInputRequired))
				}})
		}
	}
	return fs
}()

// nameFeatures are a feature per kind of character in a tool name.
var nameFeatures = func() []compatFeature {
	var fs []compatFeature
	for _, kind := range []string{profiles.NameDot, profiles.NameHyphen, profiles.NameUpper, profiles.NameNonASCII, profiles.NamePrefix} {
		fs = append(fs, compatFeature{group: "tool_names", name: strings.ReplaceAll(kind, "-", "_"),
			description: "A tool name with " + kind + " characters reaches the model as the server wrote it; partial: rewritten.",
			fromProfile: func(p profiles.Profile) (support, bool) {
				n := namesOf(p)
				if n == nil {
					return support{}, false
				}
				for _, c := range n.Chars {
					if c.Kind == kind {
						s := support{yes: c.Fate != profiles.FateDropped, partial: c.Fate == profiles.FateRewritten}
						if s.partial {
							s.note = "rewritten: " + c.Tool + " became " + c.Name
						}
						return s, true
					}
				}
				return support{}, false
			}})
	}
	return fs
}()

// CompatOf builds the BCD-shaped file from the source.
func CompatOf(src Source) CompatFile {
	cs := clients(src)
	out := CompatFile{
		Meta:    CompatMeta{Command: src.Command, EvidenceBase: evidenceBase(src)},
		Clients: map[string]CompatClient{},
		MCP:     map[string]map[string]CompatFeature{},
	}
	for _, c := range cs {
		out.Clients[c.id] = compatClient(c)
	}
	// Each profile's ways (profiles.Expand), once: every feature reads
	// them.
	ways := map[string][]profiles.Profile{}
	for _, p := range src.Profiles {
		ways[p.ID()] = profiles.Expand([]profiles.Profile{p})
	}
	features := slices.Concat(compatFeatures, keywordFeatures(src.Profiles), nameFeatures, approvalFeatures, protocolFeatures)
	for _, f := range features {
		leaf := CompatFeature{Compat{Description: f.description, Support: map[string][]SupportStep{}}}
		for _, c := range cs {
			if steps := supportOf(f, c, ways); len(steps) > 0 {
				leaf.Compat.Support[c.id] = steps
			}
		}
		if out.MCP[f.group] == nil {
			out.MCP[f.group] = map[string]CompatFeature{}
		}
		out.MCP[f.group][f.name] = leaf
	}
	return out
}

func evidenceBase(src Source) string {
	if strings.HasPrefix(src.Base, "https://") {
		return src.Base
	}
	return ""
}

func compatClient(c client) CompatClient {
	cc := CompatClient{Name: c.name, Releases: map[string]CompatRelease{}}
	var all []string
	for _, p := range c.versions {
		all = append(all, p.Version)
	}
	for _, t := range c.timelines {
		for _, s := range t.Segments {
			all = append(all, s.Probed...)
		}
	}
	released := map[string]string{}
	for _, t := range c.timelines {
		maps.Copy(released, t.Released)
	}
	newest := c.newest().Version
	for _, v := range all {
		if v == newest {
			cc.Releases[v] = CompatRelease{Status: "current", ReleaseDate: released[v]}
		} else if _, ok := cc.Releases[v]; !ok {
			cc.Releases[v] = CompatRelease{Status: "retired", ReleaseDate: released[v]}
		}
	}
	return cc
}

// supportOf is a client's support statements for f: from the atlas's
// segments when a swept property holds f, newest first as BCD orders
// them; else from its profiled versions, each "≤V"; then, flagged, the
// newest version's other ways (flaggedSteps). ways are each profile's
// ways of running its client, by its ID: the profile's own first, then
// one per variant (profiles.Expand).
func supportOf(f compatFeature, c client, ways map[string][]profiles.Profile) []SupportStep {
	return append(mainSteps(f, c, ways), flaggedSteps(f, c, ways)...)
}

func mainSteps(f compatFeature, c client, ways map[string][]profiles.Profile) []SupportStep {
	if f.prop != "" {
		for _, t := range c.timelines {
			if !slices.Contains(t.properties, f.prop) {
				continue
			}
			if steps := segmentSteps(f, t); len(steps) > 0 {
				return steps
			}
		}
	}
	// No swept span measured it: the profiled versions.
	for _, p := range c.versions {
		// The profile's own way: a surface its runs measured under
		// another model is that model's (profiles.Expand).
		s, ok := f.fromProfile(ways[p.ID()][0])
		if !ok {
			continue
		}
		return []SupportStep{profileStep(p, s, nil)}
	}
	return nil
}

// profileStep is the statement of support s, measured at p's version
// with flags set (none: its default way).
func profileStep(p profiles.Profile, s support, flags []CompatFlag) SupportStep {
	with := ""
	for _, f := range flags {
		with += " with " + f.Name + " " + f.ValueToSet
	}
	step := SupportStep{VersionAdded: Added("≤" + p.Version), PartialImplementation: s.partial, Flags: flags}
	if s.note != "" {
		step.Notes = append(step.Notes, s.note)
	}
	if !s.yes {
		step = SupportStep{Flags: flags, Notes: []string{"not at " + p.Version + " (the newest version measured)" + with}}
		if s.note != "" {
			step.Notes = append(step.Notes, s.note)
		}
	}
	step.Notes = append(step.Notes, "measured at "+p.Version+with+": "+evidenceOf(p))
	return step
}

// defaultSupport is what f is at the client's newest version in its
// default way (base), to set a model's runs against: the profile's runs,
// made as the model's were (a slow server held as long); else the swept
// span that holds the version, where a swept property holds f.
func defaultSupport(f compatFeature, c client, base profiles.Profile) (support, bool) {
	if s, ok := f.fromProfile(base); ok {
		return s, true
	}
	if f.prop != "" {
		for _, t := range c.timelines {
			if !slices.Contains(t.properties, f.prop) {
				continue
			}
			for _, seg := range t.Segments {
				if seg.To != base.Version && !slices.Contains(seg.Probed, base.Version) {
					continue
				}
				v := seg.Props.Get(f.prop)
				if f.known != nil && !f.known(v) {
					break
				}
				return f.fromSegment(v), true
			}
		}
	}
	return support{}, false
}

// flaggedSteps are the newest version's statements for f in the other ways its runs
// measured: each model it was measured with besides its own, where the
// model changes whether the feature is supported, or only partly (a model
// that changes neither adds none: the wording of a note may differ
// between a swept span and a profile), and the feature's approval modes.
func flaggedSteps(f compatFeature, c client, ways map[string][]profiles.Profile) []SupportStep {
	p := c.newest()
	views := ways[p.ID()]
	base, measured := defaultSupport(f, c, views[0])
	var steps []SupportStep
	for i, v := range p.Variants {
		q := views[i+1]
		if v.Model == "" || v.Model == p.Model || q.Way != profiles.Way("", v.Model, p.Model, nil, nil) {
			continue // not a way that changes the model alone
		}
		if s, ok := f.fromProfile(q); ok && (!measured || s.yes != base.yes || s.partial != base.partial) {
			steps = append(steps, profileStep(p, s, []CompatFlag{{"runtime_flag", FlagModel, v.Model}}))
		}
	}
	if f.modes != nil {
		for _, m := range f.modes(p) {
			steps = append(steps, profileStep(p, m.s, []CompatFlag{m.flag}))
		}
	}
	return steps
}

func evidenceOf(p profiles.Profile) string {
	for _, e := range p.Evidence {
		if evidenceLink(e.Ref) != "" {
			return e.Ref
		}
	}
	return "the built-in profile " + p.ID()
}

// segmentSteps turns a timeline's segments into support statements: a
// run of segments with the same support is one statement, from its first
// version to the first version of the next run ("≤" it when the change
// was not narrowed to one version). A segment that did not
// measure the feature is left out: the run after it starts "≤" its first
// version, as does the first run when the versions before it were not
// measured (a ranged sweep, or releases that could not run).
func segmentSteps(f compatFeature, t timeline) []SupportStep {
	type run struct {
		first, last int
		s           support
		// unsure: the segments before it did not measure the feature
		// (or the sweep began after the client's first release).
		unsure bool
	}
	var runs []run
	// Versions before the first span were not measured: not swept (a
	// ranged sweep), or not runnable.
	gap := t.Selector != "all" || len(t.Segments) > 0 && len(t.Versions) > 0 && t.Segments[0].From != t.Versions[0]
	for i, seg := range t.Segments {
		v := seg.Props.Get(f.prop)
		if f.known != nil && !f.known(v) {
			gap = true
			continue
		}
		s := f.fromSegment(v)
		if n := len(runs); n > 0 && !gap && runs[n-1].s == s {
			runs[n-1].last = i
			continue
		}
		runs = append(runs, run{first: i, last: i, s: s, unsure: gap})
		gap = false
	}
	var steps []SupportStep
	for i := len(runs) - 1; i >= 0; i-- {
		r := runs[i]
		if !r.s.yes {
			continue
		}
		step := SupportStep{VersionAdded: Added(t.Segments[r.first].From), PartialImplementation: r.s.partial}
		if r.unsure || !exactChange(t, string(step.VersionAdded)) {
			step.VersionAdded = "≤" + step.VersionAdded
		}
		if i+1 < len(runs) {
			step.VersionRemoved = t.Segments[runs[i+1].first].From
			if !exactChange(t, step.VersionRemoved) {
				step.VersionRemoved = "≤" + step.VersionRemoved
			}
		}
		if r.s.note != "" {
			step.Notes = append(step.Notes, r.s.note)
		}
		if e := evidenceIn(t.Segments[r.first].Props, f.prop, t.dir); e != "" {
			step.Notes = append(step.Notes, "swept: "+e)
		}
		steps = append(steps, step)
	}
	if len(steps) == 0 && len(runs) > 0 {
		steps = []SupportStep{{Notes: []string{"not in any version swept that measured it (" + t.Versions[0] + " to " + t.Versions[len(t.Versions)-1] + ")"}}}
	}
	return steps
}

// exactChange reports whether the timeline's change to version first was
// narrowed to it (its neighbour before was probed); a change that lies
// somewhere between two probed versions is not.
func exactChange(t timeline, first string) bool {
	for _, c := range t.Changes {
		if c.First == first {
			return c.Exact
		}
	}
	return true
}

func evidenceIn(props atlas.Props, name, dir string) string {
	for _, p := range props {
		if p.Name == name && p.Evidence != "" {
			return dir + "/" + p.Evidence
		}
	}
	return ""
}
