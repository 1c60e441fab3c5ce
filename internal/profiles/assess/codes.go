package assess

import (
	"fmt"
	"io"
	"strings"

	"github.com/instrlab/instrlab/internal/table"
)

// A Code names one kind of finding. It is stable: scripts, SARIF (its
// ruleId) and the docs use it, so a code is never renamed.
type Code string

// The codes check reports. Each has its Doc in Docs.
const (
	Unreachable     Code = "unreachable"
	StdoutGarbage   Code = "stdout-garbage"
	ToolsFailed     Code = "tools-failed"
	EndsSession     Code = "ends-session"
	DropsServer     Code = "drops-server"
	ProbeExit       Code = "probe-exit"
	FallbackFailed  Code = "fallback-failed"
	Invisible       Code = "invisible"
	MaxChars        Code = "max-chars"
	MaxTokens       Code = "max-tokens"
	Require         Code = "require"
	MaxStartup      Code = "max-startup"
	ErasDiffer      Code = "eras-differ"
	Truncated       Code = "truncated"
	Unused          Code = "unused"
	ToolTruncated   Code = "tool-truncated"
	ToolOrder       Code = "tool-order"
	NonBMP          Code = "non-bmp"
	SettingIgnored  Code = "setting-ignored"
	StartupSlow     Code = "startup-slow"
	LegacyRefused   Code = "legacy-refused"
	LegacyFailed    Code = "legacy-failed"
	ProbeSilent     Code = "probe-silent"
	ProbeInvalid    Code = "probe-invalid"
	Schema          Code = "schema"
	UnsetVar        Code = "unset-var"
	ProbeOK         Code = "probe-ok"
	ProbeOtherError Code = "probe-other-error"
	NoTools         Code = "no-tools"
	NoInstructions  Code = "no-instructions"
	Setting         Code = "setting"
	MaxName         Code = "max-name"
	NameCut         Code = "name-cut"
	NameDropped     Code = "name-dropped"
	NameRenamed     Code = "name-renamed"
	SchemaLost      Code = "schema-lost"
	ResultForm      Code = "result-form"
	TextsUnseen     Code = "texts-unseen"
	ResultCut       Code = "result-cut"
	CallFailed      Code = "call-failed"
)

// A Doc says what one code means, the way a go vet analyzer carries its
// name and its documentation: check -h, the SARIF rules and the findings
// section of docs/check.md are all made from Docs.
type Doc struct {
	Code Code
	// Level is the level the finding is reported at; a rule's finding
	// (Rule set) is always Fail.
	Level string
	// Fails, when set, says when a finding of a lower Level fails
	// instead.
	Fails string
	// Rule is the flag that asks for the finding, for the codes that
	// are rules.
	Rule string
	// Short is one line: what was found.
	Short string
	// Help is what it means for a client and what to do about it.
	Help string
}

// Docs documents every code: failures first, then warnings, then notes.
var Docs = []Doc{
	{Code: Unreachable, Level: Fail,
		Short: "neither era got a JSON-RPC reply",
		Help:  "Neither initialize nor server/discover, each sent to a fresh process or connection, got a JSON-RPC reply: the command was not found, the server exited at start, the HTTP endpoint refused, answered with an HTML page or a redirect, or stayed silent for all of -timeout. No client can use the server; check exits 3. Where a profile waits longer than -timeout, the finding says so."},
	{Code: StdoutGarbage, Level: Fail,
		Short: "stdout carries lines that are not JSON-RPC",
		Help:  "Over stdio, standard output is the protocol channel: a line that is not JSON-RPC (a banner, a log line) can make a client drop the connection. Log to standard error instead."},
	{Code: ToolsFailed, Level: Fail,
		Short: "tools/list failed",
		Help:  "tools/list answered with an error or no valid result, so a client gets no tools from the server. A -32601 from a server that declares no tools capability is the note no-tools instead."},
	{Code: EndsSession, Level: Fail,
		Short: "a client ends its whole session when a method fails",
		Help:  "The server answered initialize, server/discover or tools/list with an error, and a client profile measured that its client then ends its whole session (Continue CLI 1.5.47 exits 1 when initialize fails: \"MCP server(s) failed to load\"), with every other server. Answer the method."},
	{Code: ProbeExit, Level: Fail,
		Short: "the server exits on server/discover",
		Help:  "The server exited when sent server/discover, the modern era's first request. A client that probes on the same process (Claude Code 2.1.285 did in 20 of 20 runs) loses the server; over HTTP, every probing client does. Answer a method you do not know with -32601 (method not found)."},
	{Code: FallbackFailed, Level: Fail,
		Short: "initialize fails after the probe, on the same process",
		Help:  "After server/discover got an error or no answer, initialize on the same process, as a probing client sends it next, did not succeed: probing clients cannot fall back to the legacy era."},
	{Code: Invisible, Level: Warn, Fails: "when the text holds Unicode tag characters",
		Short: "invisible characters in text the model reads",
		Help:  "The instructions, a tool's name or description, or the server's name hold characters a reader does not see and a model reads: zero-width characters, bidirectional controls and other format characters warn; Unicode tag characters, invisible ASCII that can spell hidden text, fail. The finding spells out which, and where."},
	{Code: MaxChars, Level: Fail, Rule: "-max-chars",
		Short: "instructions longer than -max-chars",
		Help:  "An era's instructions are longer than -max-chars characters (Unicode code points)."},
	{Code: MaxTokens, Level: Fail, Rule: "-max-tokens",
		Short: "instructions estimated above -max-tokens",
		Help:  "An era's instructions are estimated at more tokens than -max-tokens. The estimate is tiktoken o200k_base, not the client's tokenizer."},
	{Code: Require, Level: Fail, Rule: "-require",
		Short: "a -require phrase is missing or cut off",
		Help:  "A -require phrase is not in an era's instructions, or a client profile cuts the text before the phrase ends."},
	{Code: MaxStartup, Level: Fail, Rule: "-max-startup",
		Short: "the first reply is slower than -max-startup",
		Help:  "The slowest first reply (from spawn; over HTTP, from the first request) came later than -max-startup."},
	{Code: MaxName, Level: Fail, Rule: "-max-name",
		Short: "a tool's name longer than -max-name",
		Help:  "A tool's name is longer than -max-name characters: its own name, or the name a client profile measured it gives the tool, with its prefix and the server's name (mcp__SERVER__TOOL)."},
	{Code: ErasDiffer, Level: Warn, Fails: "with -require-same-eras",
		Short: "initialize and server/discover send different instructions",
		Help:  "A client that gets a DiscoverResult never sends initialize, so it sees only the server/discover text; a client that does not probe sees only the initialize text. -require-same-eras makes this a failure."},
	{Code: Truncated, Level: Warn,
		Short: "a client cuts the instructions",
		Help:  "A client keeps only part of the instructions, by its profile: the rest never reaches the model, and the client says nothing. The finding names the clients and arms, what they keep and the sections lost. Put what matters first, or shorten the text."},
	{Code: Unused, Level: Warn,
		Short: "a client puts none of the instructions in the model's context",
		Help:  "The profile measured that the client received the instructions and that no model request held any of them: for that client the text is lost whole. What the model must know belongs in tool descriptions too."},
	{Code: ToolTruncated, Level: Warn,
		Short: "a client cuts a tool description",
		Help:  "A tool's description is longer than a client profile's cap on tool descriptions; the rest never reaches the model. The finding says when the cap comes from the client's documentation rather than a measurement."},
	{Code: ToolOrder, Level: Warn,
		Short: "tools/list lists the tools in another order the second time",
		Help:  "A second tools/list on the same connection listed the tools in another order, or other tools. A client that keeps the server's order then sends the model another tool list after it lists again (a reconnect, a list_changed), and the request's prefix changes: a prompt cache misses from there on (one client's hash-map order sent cache hits below 1%). The 2026-07-28 protocol asks servers for a deterministic tools/list order: sort the tools, by name for instance. Which clients keep the server's order, and whether their requests keep a stable prefix from turn to turn, is measured in docs/clients.md, \"Sessions of many turns\"."},
	{Code: DropsServer, Level: Warn,
		Short: "a client drops the whole server when a method fails",
		Help:  "The server answered tools/list (or server/discover) with an error, and a client profile measured that its client then drops the whole server: its instructions do not reach the model either (Codex CLI 0.169.0 and opencode when tools/list fails). Other clients keep the instructions; the views say which."},
	{Code: NameCut, Level: Warn,
		Short: "a client cuts a tool's name",
		Help:  "With the prefix a client puts before it (mcp__SERVER__), the tool's name is longer than a name the client's profile measured it cut (instrlab run -matrix surface, docs/surface.md), or past the client's tool-name budget where the name a character past it was cut (instrlab budget -budget name, docs/budgets.md): the model sees the cut name, often with a hash after it. Shorten the tool's name, or the server's."},
	{Code: NameDropped, Level: Warn,
		Short: "a client does not offer a tool, by its name",
		Help:  "A client profile measured that the client does not offer a tool whose name is this long with its prefix (a measured name, or past its tool-name budget), or holds a character of a kind it does not offer (Claude Code 2.1.332 does not offer a name of 138 characters with its prefix): the model cannot call the tool. Use letters, digits, '_' and '-'."},
	{Code: NameRenamed, Level: Info,
		Short: "a client renames a tool",
		Help:  "A client profile measured that the client gives a tool with a name of this kind (dots, hyphens, letters outside ASCII) another name: the model calls it by that name, and the call still reaches the server."},
	{Code: SchemaLost, Level: Warn,
		Short: "a client drops or rewrites keywords of a tool's input schema",
		Help:  "A client profile measured that the client drops keywords of an input schema (Codex CLI 0.171.0: pattern, format, bounds, default) or rewrites them (const as enum) before the model sees the tool: a constraint the model never sees, it may not keep. The finding names the keywords and the measured example. Say what matters in the description too, and check the input on the server."},
	{Code: ResultForm, Level: Warn,
		Short: "a client gives the model one form of a structured result",
		Help:  "The tool has an output schema, so its results carry structuredContent beside their content text, and a client profile measured that the client gives the model only one of the two (Claude Code 2.1.328 the structuredContent JSON, opencode the content text). Put what the model needs in both."},
	{Code: ResultCut, Level: Warn,
		Short: "a client does not give the model a tool's result whole",
		Help:  "check -call called the tool, and its result is longer than the longest a client profile measured the client to give the model whole (instrlab budget -budget result, docs/budgets.md: Cline CLI 3.0.65 7,961 characters, Claude Code 2.1.332 50,000): the finding says what the model gets instead, as measured (the start and a marker, a saved file's path, an error). A result between the budget counted in characters and the budget counted in UTF-8 bytes says the client's unit decides, not measured. Return less, or page it."},
	{Code: CallFailed, Level: Warn,
		Short: "a tool check -call called did not return a result",
		Help:  "The tool answered -call with a JSON-RPC error, no reply within -timeout, a result that is not a CallToolResult, or the server exited: nothing of it can be predicted; or the server's tools/list does not name it, and it was not called (with -config, name the server with -server). The finding says which."},
	{Code: TextsUnseen, Level: Info,
		Short: "what a client does with the server's prompts and resources",
		Help:  "The server declares prompts or resources, and a client profile measured what the client does with them: whether it asks for them at all, whether any of their texts (names, titles, descriptions) reach the model (none did in any of the ten pinned clients), and whether a resource reaches the model when the model reads it with the client's own resource tool (whole in Claude Code, Codex CLI, Gemini CLI, Kilo Code CLI, opencode and Qwen Code; Cline, Continue, Copilot CLI and Droid offer no such tool). Put what the model must know in the instructions or a tool's description."},
	{Code: NonBMP, Level: Warn,
		Short: "characters outside the BMP before a cut",
		Help:  "The kept part holds characters outside the Basic Multilingual Plane (emoji, rare CJK). A client that counts UTF-16 units counts each as two and cuts earlier than a count of characters says; not measured unless the profile's unit is UTF-16."},
	{Code: SettingIgnored, Level: Warn,
		Short: "a cap setting the client ignores",
		Help:  "The environment sets a client's cap setting (as CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH) to a value the client does not accept as it parses it (25,000 is not plain digits), so its default cap holds."},
	{Code: StartupSlow, Level: Warn,
		Short: "the server may start too slowly for a client",
		Help:  "The slowest first reply took more than half of how long a client waits for a server to start, or the server did not answer within check's -timeout. The finding says per client whether the server makes it in time, from the wait its profile measured (instrlab budget, docs/budgets.md), else its documented wait (Claude Code 2.1.285: MCP_TIMEOUT, 30 s by default), else says the wait is not measured."},
	{Code: LegacyRefused, Level: Warn,
		Short: "initialize refused with -32022",
		Help:  "The server refused initialize with -32022: clients that do not probe with server/discover cannot use it."},
	{Code: LegacyFailed, Level: Warn,
		Short: "initialize failed",
		Help:  "The legacy handshake (initialize, protocol 2025-11-25) did not succeed: clients that do not probe cannot use the server."},
	{Code: ProbeSilent, Level: Warn,
		Short: "no answer to server/discover within -timeout",
		Help:  "A probing client waits out its whole probe timeout before it falls back to initialize (check did not wait beyond -timeout). Answer a method you do not know with -32601."},
	{Code: ProbeInvalid, Level: Warn,
		Short: "server/discover got a reply that is not JSON-RPC",
		Help:  "The reply to server/discover is not a JSON-RPC response a client can read; what a client does next was not measured."},
	{Code: Schema, Level: Warn,
		Short: "a reply departs from its era's schema",
		Help:  "An initialize result or a DiscoverResult lacks a field its era requires or holds one in a form the schema does not allow (ttlMs, cacheScope, resultType, _meta server info); a strict client may refuse it."},
	{Code: UnsetVar, Level: Warn,
		Short: "a ${VAR} in the config is not set",
		Help:  "The config names ${VAR} without a default and the variable is not set: Claude Code passes it to the server as written, \"${VAR}\", and reports an error."},
	{Code: ProbeOK, Level: Info,
		Short: "server/discover answered -32601",
		Help:  "A legacy server answers server/discover with -32601 (method not found), so a probing client falls back to initialize at once: the behaviour to have."},
	{Code: ProbeOtherError, Level: Info,
		Short: "server/discover answered another error",
		Help:  "Clients fall back to initialize on any error, though -32601 (method not found) is the usual answer."},
	{Code: NoTools, Level: Info,
		Short: "no tools capability, and tools/list answers -32601",
		Help:  "The server declares no tools capability and answers tools/list with -32601, which is consistent: a client lists no tools."},
	{Code: NoInstructions, Level: Info,
		Short: "an era's reply has no instructions field",
		Help:  "The era's reply holds no instructions, so no client puts any of the server's text in the model's context for it."},
	{Code: Setting, Level: Info,
		Short: "a cap setting in the environment changes a client's cap",
		Help:  "The environment check runs in sets a client's cap setting to a value the client accepts; the views use that cap instead of the default."},
}

// Doc is the code's documentation; a code without one (none, as a test
// checks) gets a Doc that says so.
func (c Code) Doc() Doc {
	for _, d := range Docs {
		if d.Code == c {
			return d
		}
	}
	return Doc{Code: c, Level: Warn, Short: string(c), Help: "No documentation for the finding " + string(c) + "."}
}

// Levels is how the doc's levels read: "fail", or "warn (fail with
// -require-same-eras)".
func (d Doc) Levels() string {
	if d.Fails != "" {
		return d.Level + " (fail " + d.Fails + ")"
	}
	return d.Level
}

// WriteDocs lists every code for check -h: its level, code and short
// line, wrapped to width.
func WriteDocs(w io.Writer, width int) error {
	var b strings.Builder
	b.WriteString("Findings (docs/check.md, Findings, says more of each):\n")
	for _, d := range Docs {
		head := fmt.Sprintf("  %-4s  %-18s ", d.Level, d.Code)
		short := d.Short
		if d.Fails != "" {
			short += "; fails " + d.Fails
		}
		b.WriteString(table.Hang(head, short, width))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// The markers of the findings section of docs/check.md, which
// WriteDocsMarkdown writes.
const (
	docsBegin = "<!-- findings: written by go test ./internal/profiles/assess -run DocsFindings -update -->\n"
	docsEnd   = "<!-- end of findings -->\n"
)

// WriteDocsMarkdown writes the table of every code for docs/check.md:
// code, level (and when it fails), and its help.
func WriteDocsMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("\n| code | level | what it means |\n|---|---|---|\n")
	for _, d := range Docs {
		level := d.Levels()
		if d.Rule != "" {
			level += " (rule `" + d.Rule + "`)"
		}
		help := strings.ReplaceAll(d.Help, "|", `\|`)
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", d.Code, level, help)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}
