package reference

import (
	"slices"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/profiles"
)

// A group is one kind of thing a server sends (or one way a client treats
// a server): a page across clients, one row per client's newest version,
// and a section of each client's page, one column per version. Adding a
// fact to the reference is one fact here.
type group struct {
	file, title, intro string
	// facts are the group's columns across clients and its rows on a
	// client's page; those of a group whose facts depend on the clients
	// (the protocol's features) come from sectionsOf, each section a
	// table of its own on the group's page.
	facts      []fact
	sectionsOf func(cs []client) []section
	// notes are the newest version's notes shown under its section on a
	// client's page.
	notes func(p profiles.Profile) []string
	// headline is the group's column in the index of clients: the fact
	// that says the most in a few words.
	headline fact
}

type fact struct {
	name string
	of   func(profiles.Profile) string
}

// A section is a run of a group's facts that the group's page shows as a
// table headed by its title, and a client's page as rows named with its
// suffix ("sampling (2026-07-28, HTTP)").
type section struct {
	title, suffix string
	facts         []fact
}

// factsFor are g's facts, one list: each section's named with its suffix.
func (g group) factsFor(cs []client) []fact {
	if g.sectionsOf == nil {
		return g.facts
	}
	var fs []fact
	for _, s := range g.sectionsOf(cs) {
		for _, f := range s.facts {
			fs = append(fs, fact{f.name + s.suffix, f.of})
		}
	}
	return fs
}

// sectionsFor are g's sections; a group without is one untitled section.
func (g group) sectionsFor(cs []client) []section {
	if g.sectionsOf == nil {
		return []section{{facts: g.facts}}
	}
	return g.sectionsOf(cs)
}

// groups are the reference's property pages, in the order a client's
// page shows them.
var groups = []group{
	{
		file: "instructions.md", title: "Instructions",
		headline: fact{"instructions", func(p profiles.Profile) string { return instructions(p.Instructions, p.Render) }},
		intro:    "What each client keeps of a server's instructions (the initialize result's, or the DiscoverResult's), and where in the model's request it puts them.",
		facts: []fact{
			{"kept", func(p profiles.Profile) string { return instructions(p.Instructions, p.Render) }},
			{"after a cut", func(p profiles.Profile) string { return marker(p.Instructions) }},
			{"of several lines", func(p profiles.Profile) string { return lines(p.Instructions) }},
			{"where", func(p profiles.Profile) string { return orNot(p.Render.Placement) }},
			{"around the text", func(p profiles.Profile) string { return wrapper(p.Render) }},
			{"the cap's setting", func(p profiles.Profile) string { return setting(p.Instructions) }},
			{"over Streamable HTTP", httpKept},
		},
		notes: func(p profiles.Profile) []string { return []string{p.Instructions.Note, p.Render.Note} },
	},
	{
		file: "tool-descriptions.md", title: "Tool descriptions",
		headline: fact{"tool descriptions", func(p profiles.Profile) string { return kept(p.ToolDescriptions) }},
		intro:    "What each client keeps of a tool's description, and how the description reaches the model.",
		facts: []fact{
			{"kept", func(p profiles.Profile) string { return kept(p.ToolDescriptions) }},
			{"after a cut", func(p profiles.Profile) string { return marker(p.ToolDescriptions) }},
			{"how it reaches the model", func(p profiles.Profile) string { return orNot(p.ToolDescriptions.Via) }},
			{"white space around it", func(p profiles.Profile) string { return trim(p.ToolDescriptions) }},
			{"of several lines", func(p profiles.Profile) string { return lines(p.ToolDescriptions) }},
		},
		notes: func(p profiles.Profile) []string { return []string{p.ToolDescriptions.Note} },
	},
	{
		file: "tool-results.md", title: "Tool results",
		headline: fact{"a result with text and structuredContent", func(p profiles.Profile) string { return result(p, profiles.ResultBoth) }},
		intro:    "Who gives the model what of a tool's result: of a result with content text and structuredContent, which part reached the model's next request, kept whole, cut or dropped.",
		facts:    resultFacts(),
	},
	{
		file: "schemas.md", title: "Input schemas",
		headline: fact{"schema keywords", keywordCounts},
		intro:    "What each client does with the JSON Schema keywords of a tool's input schema, at its top level and inside it (a property, a $defs entry, an items schema).",
		facts: []fact{
			{"dropped", func(p profiles.Profile) string { return keywords(p, profiles.FateDropped) }},
			{"rewritten", func(p profiles.Profile) string { return keywords(p, profiles.FateRewritten) }},
			{"keywords measured", keywordsMeasured},
		},
	},
	{
		file: "names.md", title: "Tool names",
		headline: fact{"before a tool's name", prefix},
		intro:    "What the model sees of a tool's name: the prefix a client puts before it, long names, and names with characters a client may refuse.",
		facts: []fact{
			{"before the name", prefix},
			{"longest name named whole", func(p profiles.Profile) string { return nameBudget(p) }},
			{"long names", nameLengths},
			{"a dot", nameChars(profiles.NameDot)},
			{"a hyphen", nameChars(profiles.NameHyphen)},
			{"upper case", nameChars(profiles.NameUpper)},
			{"outside ASCII", nameChars(profiles.NameNonASCII)},
			{"a name that starts another", nameChars(profiles.NamePrefix)},
			{"names the client's own tools have", reserved},
		},
	},
	{
		file: "texts.md", title: "Prompts, resources and other texts",
		headline: fact{"prompts", texts(func(t *profiles.Texts) string { return t.Prompts })},
		intro:    "Whether the texts of a server's prompts, resources and tool metadata reach the model, and what of a resource reaches it when the model reads one.",
		facts: []fact{
			{"prompts", texts(func(t *profiles.Texts) string { return t.Prompts })},
			{"resources", texts(func(t *profiles.Texts) string { return t.Resources })},
			{"tool titles and _meta", texts(func(t *profiles.Texts) string { return t.ToolMeta })},
			{"a resource read", texts(read)},
		},
	},
	{
		file: "budgets.md", title: "Start-up and budgets",
		headline: fact{"wait for a server", budgetCell(profiles.BudgetWait)},
		intro:    "How a client opens a connection, how long it waits for a server, and the budgets measured as numbers by bisection (instrlab budget): past a budget, what the client does.",
		facts: []fact{
			{"first request", probe},
			{"a slow server", slowServer},
			{"wait", budgetCell(profiles.BudgetWait)},
			{"defer", budgetCell(profiles.BudgetDefer)},
			{"result", budgetCell(profiles.BudgetResult)},
			{"tool call", budgetCell(profiles.BudgetCall)},
		},
		notes: func(p profiles.Profile) []string { return []string{p.Handshake.Note, p.Startup.Note} },
	},
	{
		file: "approvals.md", title: "Approvals",
		headline: fact{"default approval mode", approvalIn(profiles.ModeDefault)},
		intro:    "What became of a call the model made, by the class of the tool's annotations: ran, refused by the client, or no result; in the way the matrix runs the client and in its approval modes.",
		facts: []fact{
			{"as run by the matrix", approvalIn("")},
			{"default mode", approvalIn(profiles.ModeDefault)},
			{"plan mode", approvalIn(profiles.ModePlan)},
		},
	},
	{
		file: "protocol.md", title: "Protocol",
		headline:   fact{"after tools/list_changed", protocolFact(labvocab.FeatureListChanged, overStdio)},
		intro:      "What a client does with what a server asks and announces while its tools run (elicitation, sampling, roots, logs, progress, tools/list_changed) and what it declares.",
		sectionsOf: protocolSections,
	},
}

func wrapper(r profiles.Render) string {
	switch {
	case r.Unused:
		return "none: no request held the text"
	case r.Server == "":
		return notMeasured
	}
	return quote(r.Server)
}

func trim(l profiles.Limit) string {
	switch l.Trim {
	case "":
		return notMeasured
	case profiles.TrimNone:
		return "kept"
	}
	return "trimmed (" + l.Trim + ")"
}

func nameBudget(p profiles.Profile) string {
	if b := budgetOf(p, profiles.BudgetName); b != nil {
		return budget(*b)
	}
	return notMeasured
}

func resultFacts() []fact {
	var fs []fact
	for _, c := range resultCases {
		fs = append(fs, fact{c.words, func(p profiles.Profile) string { return result(p, c.id) }})
	}
	return fs
}

// protocolSections are, per era and transport, the features any version
// of the clients measured there, in the order first met.
func protocolSections(cs []client) []section {
	var out []section
	for _, o := range []struct {
		title, suffix string
		facts         func(*profiles.Protocol) []profiles.ProtocolFact
	}{{"Over stdio, 2025-11-25", "", overStdio}, {"Over stdio, 2026-07-28", " (2026-07-28)", overModern},
		{"Over Streamable HTTP, 2025-11-25", " (HTTP)", overHTTP}, {"Over Streamable HTTP, 2026-07-28", " (2026-07-28, HTTP)", overModernHTTP},
		{"Over stdio, 2026-07-28, each ask alone: its turn", " (2026-07-28, alone)", overModernAlone}} {
		var features []string
		for _, c := range cs {
			for _, p := range c.versions {
				if p.Protocol == nil {
					continue
				}
				for _, f := range o.facts(p.Protocol) {
					if !slices.Contains(features, f.Feature) {
						features = append(features, f.Feature)
					}
				}
			}
		}
		s := section{title: o.title, suffix: o.suffix}
		for _, f := range features {
			s.facts = append(s.facts, fact{f, protocolFact(f, o.facts)})
		}
		if len(s.facts) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// The protocol facts of a profile over stdio in the 2025 era, over
// 2026-07-28, and both over Streamable HTTP.
func overStdio(p *profiles.Protocol) []profiles.ProtocolFact      { return p.Facts }
func overModern(p *profiles.Protocol) []profiles.ProtocolFact     { return p.Modern }
func overHTTP(p *profiles.Protocol) []profiles.ProtocolFact       { return p.HTTP }
func overModernHTTP(p *profiles.Protocol) []profiles.ProtocolFact { return p.ModernHTTP }

// overModernAlone is what became of a client's turn after each ask alone
// (the protocol-asks row).
func overModernAlone(p *profiles.Protocol) []profiles.ProtocolFact { return p.Alone }
