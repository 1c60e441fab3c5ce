package atlas

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/untrusted"
	"github.com/instrlab/instrlab/internal/version"
	"github.com/instrlab/instrlab/schema"
)

// The export in the shape of the community list of MCP clients'
// capabilities (github.com/apify/mcp-client-capabilities, on npm and PyPI
// as mcp-client-capabilities): there, one record per clientInfo.name,
// {title, url, protocolVersion, and the capability objects tools,
// prompts, resources, roots, sampling, elicitation, completions, logging,
// tasks, experimental}, each present when the client supports it. Here,
// one such record per client and version range of the atlas's timeline
// (a Segment), its community members filled only from what the evidence
// shows, and instrlab's own facts under CapabilitiesExt.

// CapabilitiesExt is the member of a record that holds instrlab's facts
// (RangeFacts): namespaced, so that a reader of the community shape can
// ignore it.
const CapabilitiesExt = "io.github.instrlab/atlas"

// A CapabilitiesFile is capabilities.json.
type CapabilitiesFile struct {
	// Date is the atlas's (its newest sweep's).
	Date string `json:"date"`
	// Clients holds the records by the key the community list uses, the
	// name a client sends as clientInfo.name (RangeFacts.Key says where
	// each key comes from); per key, the version ranges oldest first.
	Clients map[string][]CapabilityRecord `json:"clients"`
	// Unkeyed holds, by instrlab's client name, the ranges of a client
	// whose clientInfo.name neither the evidence nor the mapping gives:
	// kept out of Clients, so that no reader looks them up by a name the
	// client does not send.
	Unkeyed map[string][]CapabilityRecord `json:"unkeyed"`
}

// A CapabilityRecord is one version range of one client, in the
// community list's shape. A capability member is present only when the
// evidence of every version probed in the range shows it: the client's
// initialize request, recorded whole, declared it (roots, sampling,
// elicitation, experimental, copied as declared; protocolVersion as
// asked), or the client requested the server's list (tools, prompts,
// resources: {}). What was not measured is absent and named in
// RangeFacts.NotMeasured; never a guess.
type CapabilityRecord struct {
	Title string `json:"title"`
	// URL is the npm page of the package the atlas installed.
	URL             string          `json:"url,omitempty"`
	ProtocolVersion string          `json:"protocolVersion,omitempty"`
	Tools           *Empty          `json:"tools,omitempty"`
	Prompts         *Empty          `json:"prompts,omitempty"`
	Resources       *Empty          `json:"resources,omitempty"`
	Roots           json.RawMessage `json:"roots,omitempty"`
	Sampling        json.RawMessage `json:"sampling,omitempty"`
	Elicitation     json.RawMessage `json:"elicitation,omitempty"`
	Experimental    json.RawMessage `json:"experimental,omitempty"`
	Facts           RangeFacts      `json:"io.github.instrlab/atlas"`
}

// Empty is a capability object with no member: supported, no detail
// measured.
type Empty struct{}

// RangeFacts are instrlab's measured facts of a version range.
type RangeFacts struct {
	// Client is instrlab's name of the client (-client), which spans the
	// range's versions: its key is "name" (the glossary's).
	Client string `json:"name"`
	// First and Last are the range's first and last versions probed;
	// Next is the first version of the next range ("" for the newest).
	// Versions after Last and before Next were not all probed: the
	// change lies somewhere between.
	First  string   `json:"first"`
	Last   string   `json:"last"`
	Next   string   `json:"next,omitempty"`
	Newest bool     `json:"newest"`
	Probed []string `json:"probed"`
	Key    KeyFacts `json:"key"`
	// Instructions is what the client does with a server's instructions.
	Instructions InstructionFacts `json:"instructions"`
	// Probe is the first method the server received ("server/discover
	// first"); DualEra (the property dual-era; "era" before
	// capabilities.v2.json) which era's text a server of both eras had
	// its client use, and whether it sent initialize; Wait whether it
	// waits for a server 3 s slow before its first model request.
	Probe   string `json:"probe,omitempty"`
	DualEra string `json:"dual_era,omitempty"`
	Wait    string `json:"wait,omitempty"`
	// Budgets are the budgets measured as numbers (instrlab sweep
	// -budget), as the wait budget with its span in seconds.
	Budgets Props `json:"budgets,omitempty"`
	// Properties are the atlas's properties of the range as its first
	// version showed them, each with its evidence: a run directory,
	// relative to the directory capabilities.json is in.
	Properties Props `json:"properties"`
	// Handshakes are what each version probed sent to the server, read
	// from its lab log.
	Handshakes []HandshakeFacts `json:"handshakes"`
	// Observed is what the client versions of the range that a client
	// profile measured with the protocol matrix did with what a server
	// asks and announces (a version from First to Last; SiteOptions.Observed),
	// beside what the handshakes declared; empty when none was measured.
	Observed []ObservedProtocol `json:"observed,omitempty"`
	// NotMeasured names the community members this record leaves out
	// because the evidence does not show them either way.
	NotMeasured []string  `json:"not_measured"`
	Sweep       SweepInfo `json:"sweep"`
	// Page is the client's page of the site, beside capabilities.json.
	Page string `json:"page"`
}

// An ObservedProtocol is what one client version was measured doing with
// what a server asks and announces (the protocol matrix's runs, as the
// client's profile keeps them): per feature, in the analysis's words
// (surface.ProtocolLines), over 2025-11-25 (Facts) and, for a client that
// spoke it, over 2026-07-28 (Modern); Evidence is the profile's evidence
// excerpt, a path relative to capabilities.json or, with a link, a URL.
type ObservedProtocol struct {
	Version string         `json:"version"`
	Runs    int            `json:"runs"`
	Facts   []ObservedFact `json:"facts"`
	Modern  []ObservedFact `json:"modern,omitempty"`
	// HTTP and ModernHTTP are Facts and Modern over Streamable HTTP.
	HTTP       []ObservedFact `json:"http,omitempty"`
	ModernHTTP []ObservedFact `json:"modern_http,omitempty"`
	// Alone is what became of the client's turn over 2026-07-28 after
	// each ask made alone, per ask feature.
	Alone    []ObservedFact `json:"alone,omitempty"`
	Evidence string         `json:"evidence,omitempty"`
}

// An ObservedFact is what a client does with one feature ("elicitation
// form": "cancel"); Held, where the runs disagreed, each run's words (Does
// is then "varies").
type ObservedFact struct {
	Feature string   `json:"feature"`
	Does    string   `json:"does"`
	Held    []string `json:"held,omitempty"`
}

// observe adds to each record the observed protocol of its client's
// versions from the range's first to its last, as observed gives them by
// client; nil observes nothing.
func (c *CapabilitiesFile) observe(observed func(client string) []ObservedProtocol) {
	if observed == nil {
		return
	}
	for _, byKey := range []map[string][]CapabilityRecord{c.Clients, c.Unkeyed} {
		for _, rs := range byKey {
			for i := range rs {
				f := &rs[i].Facts
				for _, o := range observed(f.Client) {
					if version.Compare(f.First, o.Version) <= 0 && version.Compare(o.Version, f.Last) <= 0 {
						f.Observed = append(f.Observed, o)
					}
				}
			}
		}
	}
}

// KeyFacts say where a record's key comes from.
type KeyFacts struct {
	// Name is the key: the clientInfo.name.
	Name string `json:"name"`
	// From is "measured" when every version probed in the range sent
	// it, "mapping" when it is the community list's key for the client
	// (communityKeys) and the evidence does not name it, "none" when
	// neither gives one (the record is in Unkeyed).
	From string `json:"from"`
	// Community says the community list has the key (as of
	// communityKeys).
	Community bool `json:"community"`
}

// InstructionFacts are the atlas's facts about a server's instructions.
type InstructionFacts struct {
	// Used: "yes" (in the first model request), "in a later request
	// only" or "no".
	Used      string `json:"used,omitempty"`
	Placement string `json:"placement,omitempty"`
	Wrapper   string `json:"wrapper,omitempty"`
	// Cap is the atlas's cap as written ("4096 characters", "none up to
	// 6000 characters", "text not used"); Limit and Unit read from it
	// when the text was cut, UpTo the length sent when it was not.
	Cap    string `json:"cap,omitempty"`
	Limit  int    `json:"limit,omitempty"`
	Unit   string `json:"unit,omitempty"`
	UpTo   int    `json:"up_to,omitempty"`
	Marker string `json:"marker,omitempty"`
}

// HandshakeFacts is one probed version's handshake as its lab log kept
// it. Initialize is set when the log kept the initialize request whole
// (evidence recorded since the lab keeps it), Discover when the client
// sent server/discover with _meta; Requests are the methods the client
// requested, in order, each once.
type HandshakeFacts struct {
	Version    string    `json:"version"`
	Evidence   string    `json:"evidence"`
	Initialize *Declared `json:"initialize,omitempty"`
	Discover   *Declared `json:"discover,omitempty"`
	Requests   []string  `json:"requests"`
	// Note says why nothing, or not all, is known: no lab log, or
	// lines of it that could not be read.
	Note string `json:"note,omitempty"`
}

// Declared is what a client said of itself in one request.
type Declared struct {
	Name            string          `json:"name,omitempty"`
	Version         string          `json:"version,omitempty"`
	ProtocolVersion string          `json:"protocol_version,omitempty"`
	Capabilities    json.RawMessage `json:"capabilities,omitempty"`
}

// A communityClient is how an instrlab client stands in the community
// list: the key it has there ("" for none) and its npm page. Key is the
// name the client sends as clientInfo.name where known; a measured name
// wins over it. Its title there, its name as its makers write it, is the
// client adapter's (client.Info.Display), which the command hands the
// atlas (SiteOptions.Display).
type communityClient struct{ key, url string }

// communityKeys maps instrlab's clients to the community list (its keys
// as of 2026-02-02, apify/mcp-client-capabilities 9476cfb):
//
//   - claude-code "claude-code": measured (initialize of 2.1.138–2.1.226,
//     server/discover of 2.1.292 on).
//   - copilot "github-copilot-developer": measured for 1.0.11–1.0.80;
//     1.0.81 on send "copilot-cli", which the list lacks.
//   - opencode "opencode": measured (server/discover of 1.18.8).
//   - codex "codex-mcp-client", continue "continue-cli-client", droid
//     "factory-cli", gemini "gemini-cli-mcp-client": the list's key for
//     the client, a name its package holds; not measured (their
//     evidence keeps no handshake).
//   - cline: none. Cline CLI 3.0.57–3.0.65 send "@cline/core"
//     (measured), which the list lacks.
//   - kilo, qwen: none. Qwen Code's code names each connection
//     "qwen-cli-mcp-client-" and the server's name.
//   - ai-sdk: none. The Vercel AI SDK 7.0.185's MCP client sends
//     "ai-sdk-mcp-client" (measured), which the list lacks.
//   - openai-agents: none. The OpenAI Agents SDK 0.20.0 sends as its
//     clientInfo name the name the app gives the server (measured: "lab",
//     version 1.0.0): no key of its own.
//   - claude-agent-sdk "claude-code": measured; the Claude Agent SDK
//     0.3.337 runs its own Claude Code (2.1.337), whose clientInfo it sends.
//   - langchain: none. LangChain.js's adapters 1.1.4 send
//     "@langchain/mcp-adapters" (measured), which the list lacks.
//   - adk: none. ADK for TypeScript 2.0.0 sends "MCPClient" (measured),
//     the MCP SDK's placeholder, which names no client.
//   - grok: none. Grok CLI 0.0.34 sends "grok-cli" (measured), which the
//     list lacks.
//   - mastra: none. Mastra's MCPClient (@mastra/mcp 2.0.0) sends as its
//     clientInfo name the server's name in the app's config (measured:
//     "lab", version 1.0.0): no key of its own.
//   - mcp-use: none. mcp-use 1.34.6 sends "mcp-use" (measured), which the
//     list lacks.
var communityKeys = map[string]communityClient{
	"ai-sdk":           {"", npmPage("ai")},
	"openai-agents":    {"", npmPage("@openai/agents")},
	"langchain":        {"", npmPage("@langchain/mcp-adapters")},
	"mastra":           {"", npmPage("@mastra/mcp")},
	"mcp-use":          {"", npmPage("mcp-use")},
	"adk":              {"", npmPage("@google/adk")},
	"grok":             {"", npmPage("@vibe-kit/grok-cli")},
	"claude-agent-sdk": {"claude-code", npmPage("@anthropic-ai/claude-agent-sdk")},
	"claude-code":      {"claude-code", npmPage("@anthropic-ai/claude-code")},
	"cline":            {"", npmPage("cline")},
	"codex":            {"codex-mcp-client", npmPage("@openai/codex")},
	"continue":         {"continue-cli-client", npmPage("@continuedev/cli")},
	"copilot":          {"github-copilot-developer", npmPage("@github/copilot")},
	"droid":            {"factory-cli", npmPage("@factory/cli")},
	"gemini":           {"gemini-cli-mcp-client", npmPage("@google/gemini-cli")},
	"kilo":             {"", npmPage("@kilocode/cli")},
	"opencode":         {"opencode", npmPage("opencode-ai")},
	"qwen":             {"", npmPage("@qwen-code/qwen-code")},
}

func npmPage(pkg string) string { return "https://www.npmjs.com/package/" + pkg }

// communityMembers are the community record's members besides title and
// url, in its order.
var communityMembers = []string{"protocolVersion", "resources", "prompts", "tools", "tasks", "elicitation", "sampling", "roots", "completions", "logging", "experimental"}

// Capabilities builds capabilities.json from the atlas: a record per
// client and segment, titled by display (SiteOptions.Display). Evidence
// paths resolve from base (the directory the file is written to: a
// site's); a version whose lab log is not there has no handshake known,
// and a log that cannot be read is an error.
func (a *Atlas) Capabilities(base string, display func(client string) string) (*CapabilitiesFile, error) {
	out := &CapabilitiesFile{Date: a.Date, Clients: map[string][]CapabilityRecord{}, Unkeyed: map[string][]CapabilityRecord{}}
	for _, t := range a.Timelines {
		first := map[string]Point{}
		for _, p := range t.Points {
			if p.Attempt <= 1 {
				first[p.Version] = p
			}
		}
		for i := range t.Segments {
			r, err := capabilityRecord(base, t, i, first, display)
			if err != nil {
				return nil, err
			}
			if r.Facts.Key.From == "none" {
				out.Unkeyed[t.Client] = append(out.Unkeyed[t.Client], r)
				continue
			}
			out.Clients[r.Facts.Key.Name] = append(out.Clients[r.Facts.Key.Name], r)
		}
	}
	return out, nil
}

// mapEvidence replaces every evidence path of the file (its records'
// properties, budgets, handshakes and observed protocols) with to's.
func (c *CapabilitiesFile) mapEvidence(to func(string) string) {
	for _, byKey := range []map[string][]CapabilityRecord{c.Clients, c.Unkeyed} {
		for _, rs := range byKey {
			for i := range rs {
				f := &rs[i].Facts
				f.Properties, f.Budgets = f.Properties.mapped(to), f.Budgets.mapped(to)
				for j := range f.Handshakes {
					if f.Handshakes[j].Evidence != "" {
						f.Handshakes[j].Evidence = to(f.Handshakes[j].Evidence)
					}
				}
				for j := range f.Observed {
					if f.Observed[j].Evidence != "" {
						f.Observed[j].Evidence = to(f.Observed[j].Evidence)
					}
				}
			}
		}
	}
}

// JSON writes the export as indented JSON, named as schema.Capabilities.
func (c *CapabilitiesFile) JSON(w io.Writer) error {
	return untrusted.JSON(w, schema.Named(schema.Capabilities, c))
}

// capabilityRecord is the record of t's i-th segment; first holds t's
// first attempts by version. A client the mapping lacks (none that
// instrlab runs), or a nil display, leaves the title the client's name.
func capabilityRecord(base string, t Timeline, i int, first map[string]Point, display func(string) string) (CapabilityRecord, error) {
	s := t.Segments[i]
	cc, known := communityKeys[t.Client]
	title := t.Client
	if known && display != nil {
		title = display(t.Client)
	}
	f := RangeFacts{Client: t.Client, First: s.From, Last: s.To, Newest: i == len(t.Segments)-1,
		Probed: s.Probed, Properties: s.Props, NotMeasured: []string{}, Sweep: t.Sweep, Page: t.Client + ".html"}
	if !f.Newest {
		f.Next = t.Segments[i+1].From
	}
	f.Instructions = InstructionFacts{Used: s.Props.Get("uses"), Placement: s.Props.Get("placement"),
		Wrapper: s.Props.Get("wrapper"), Cap: s.Props.Get("cap"), Marker: s.Props.Get("marker")}
	f.Instructions.Limit, f.Instructions.Unit, f.Instructions.UpTo = readCapValue(f.Instructions.Cap)
	f.Probe, f.DualEra, f.Wait = s.Props.Get("probe"), s.Props.Get("dual-era"), s.Props.Get("slow-server")
	for _, p := range s.Props {
		if strings.HasSuffix(p.Name, BudgetProperty("")) {
			f.Budgets = append(f.Budgets, p)
		}
	}
	for _, v := range s.Probed {
		h, err := readHandshake(base, v, first[v])
		if err != nil {
			return CapabilityRecord{}, fmt.Errorf("capabilities of %s@%s: %w", t.Client, v, err)
		}
		f.Handshakes = append(f.Handshakes, h)
	}
	r := CapabilityRecord{Title: title, URL: cc.url}
	measured := fillDeclared(&r, f.Handshakes)
	for method, member := range map[string]**Empty{"tools/list": &r.Tools, "prompts/list": &r.Prompts, "resources/list": &r.Resources} {
		if _, ok := allSame(f.Handshakes, func(h HandshakeFacts) (string, bool) { return "", slices.Contains(h.Requests, method) }); ok {
			*member = &Empty{}
			measured[strings.TrimSuffix(method, "/list")] = true
		}
	}
	for _, m := range communityMembers {
		if !measured[m] {
			f.NotMeasured = append(f.NotMeasured, m)
		}
	}
	f.Key = KeyFacts{Name: cc.key, From: "mapping", Community: cc.key != ""}
	if name, ok := allSame(f.Handshakes, sentName); ok {
		f.Key = KeyFacts{Name: name, From: "measured", Community: name == cc.key && cc.key != ""}
	} else if cc.key == "" {
		f.Key = KeyFacts{From: "none"}
	}
	r.Facts = f
	return r, nil
}

// sentName is the clientInfo.name a handshake sent, in initialize or in
// server/discover's _meta.
func sentName(h HandshakeFacts) (string, bool) {
	for _, d := range []*Declared{h.Initialize, h.Discover} {
		if d != nil && d.Name != "" {
			return d.Name, true
		}
	}
	return "", false
}

// fillDeclared sets, from the initialize requests of every version of
// the range, recorded whole: protocolVersion when all asked for the same
// one, and roots, sampling, elicitation and experimental as declared
// when all declared the same capabilities (then a member none declared is
// measured absent). It returns the members so measured.
func fillDeclared(r *CapabilityRecord, hs []HandshakeFacts) map[string]bool {
	measured := map[string]bool{}
	if v, ok := allSame(hs, func(h HandshakeFacts) (string, bool) {
		return initialize(h).ProtocolVersion, h.Initialize != nil && h.Initialize.ProtocolVersion != ""
	}); ok {
		r.ProtocolVersion = v
		measured["protocolVersion"] = true
	}
	if _, ok := allSame(hs, func(h HandshakeFacts) (string, bool) {
		return canonical(initialize(h).Capabilities), h.Initialize != nil && h.Initialize.Capabilities != nil
	}); !ok {
		return measured
	}
	var caps map[string]json.RawMessage
	if json.Unmarshal(hs[0].Initialize.Capabilities, &caps) != nil {
		return measured
	}
	for name, member := range map[string]*json.RawMessage{"roots": &r.Roots, "sampling": &r.Sampling, "elicitation": &r.Elicitation, "experimental": &r.Experimental} {
		v, declared := caps[name]
		*member = objectOrNil(v)
		// declared as something other than an object: not the shape
		// the community reads, so not measured either way
		measured[name] = !declared || *member != nil
	}
	return measured
}

// initialize is h's initialize declaration, or an empty one.
func initialize(h HandshakeFacts) Declared {
	if h.Initialize == nil {
		return Declared{}
	}
	return *h.Initialize
}

// allSame returns the value get gives every handshake, when it gives
// one to each and they agree; false when any has none, or they differ,
// or there are none.
func allSame(hs []HandshakeFacts, get func(HandshakeFacts) (string, bool)) (string, bool) {
	var v string
	for i, h := range hs {
		x, ok := get(h)
		if !ok || i > 0 && x != v {
			return "", false
		}
		v = x
	}
	return v, len(hs) > 0
}

// canonical is a JSON value's text with object members sorted, for
// comparing two declarations.
func canonical(raw json.RawMessage) string {
	var a any
	if json.Unmarshal(raw, &a) != nil {
		return string(raw)
	}
	b, _ := json.Marshal(a)
	return string(b)
}

// handshakeRow is the probe-matrix row whose run shows the handshake:
// the one the probe property is read from.
func handshakeRow() string { return propRow("probe") }

// readHandshake reads version's handshake from the lab log of its
// handshake row's run, found through the evidence of a property read
// from that row. No such property, or no log there, is a handshake not
// known (Note); a log that cannot be opened otherwise is an error.
func readHandshake(base, version string, p Point) (HandshakeFacts, error) {
	h := HandshakeFacts{Version: version, Requests: []string{}}
	for _, prop := range p.Props {
		if r := propRow(prop.Name); r != "" && r == handshakeRow() && prop.Evidence != "" {
			h.Evidence = prop.Evidence
			break
		}
	}
	if h.Evidence == "" {
		h.Note = "no evidence of the " + handshakeRow() + " row"
		return h, nil
	}
	path := evidence.RunDir(filepath.Join(base, filepath.FromSlash(h.Evidence))).LabLog()
	msgs, warnings, err := analyze.ReadLabLog(path)
	if errors.Is(err, fs.ErrNotExist) {
		h.Note = "no lab log in the evidence"
		return h, nil
	}
	if err != nil {
		return h, err
	}
	if len(warnings) > 0 {
		// What a torn line held is not known: the handshake may lack
		// it, and then a member stays not measured.
		h.Note = fmt.Sprintf("%d lines of the lab log unread, first %s", len(warnings), warnings[0])
	}
	for _, m := range msgs {
		if m.Dir != "recv" || m.Kind != "request" || m.Method == "" {
			continue
		}
		if !slices.Contains(h.Requests, m.Method) {
			h.Requests = append(h.Requests, m.Method)
		}
		switch {
		case m.Method == "initialize" && h.Initialize == nil && len(m.Body) > 0:
			h.Initialize = declaredInitialize(m.Body)
		case m.Method == "server/discover" && h.Discover == nil && len(m.Meta) > 0:
			h.Discover = declaredMeta(m.Meta)
		}
	}
	return h, nil
}

// propRow is the row the property name is read from, or "".
func propRow(name string) string {
	for _, p := range registry {
		if p.name == name {
			return p.row
		}
	}
	return ""
}

// declaredInitialize reads an initialize request's params; nil when the
// body is not one.
func declaredInitialize(body json.RawMessage) *Declared {
	var req struct {
		Params struct {
			ProtocolVersion string          `json:"protocolVersion"`
			Capabilities    json.RawMessage `json:"capabilities"`
			ClientInfo      struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			} `json:"clientInfo"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil {
		return nil
	}
	p := req.Params
	return &Declared{Name: p.ClientInfo.Name, Version: p.ClientInfo.Version, ProtocolVersion: p.ProtocolVersion, Capabilities: objectOrNil(p.Capabilities)}
}

// declaredMeta reads a server/discover request's _meta.
func declaredMeta(meta json.RawMessage) *Declared {
	var m struct {
		ProtocolVersion string          `json:"io.modelcontextprotocol/protocolVersion"`
		Capabilities    json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
		ClientInfo      struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"io.modelcontextprotocol/clientInfo"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	return &Declared{Name: m.ClientInfo.Name, Version: m.ClientInfo.Version, ProtocolVersion: m.ProtocolVersion, Capabilities: objectOrNil(m.Capabilities)}
}

// objectOrNil is v, made safe, when it is a JSON object, else nil.
func objectOrNil(v json.RawMessage) json.RawMessage {
	var o map[string]json.RawMessage
	if len(v) == 0 || json.Unmarshal(v, &o) != nil || o == nil {
		return nil
	}
	return untrusted.RawJSON(v)
}

var capRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(none up to )?([0-9]+) (.+)$`) })

// readCapValue reads the cap property's text: "4096 characters" is a
// limit of 4096 in characters; "none up to 6000 characters" no cut up to
// 6000; anything else (text not used, a race's rates) neither.
func readCapValue(v string) (limit int, unit string, upTo int) {
	m := capRE().FindStringSubmatch(v)
	if m == nil {
		return 0, "", 0
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return 0, "", 0
	}
	if m[1] != "" {
		return 0, m[3], n
	}
	return n, m[3], 0
}
