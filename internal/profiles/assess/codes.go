package assess

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
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
	ToolsUnoffered  Code = "tools-unoffered"
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
	NameReserved    Code = "name-reserved"
	NameRenamed     Code = "name-renamed"
	SchemaLost      Code = "schema-lost"
	ResultForm      Code = "result-form"
	TextsUnseen     Code = "texts-unseen"
	ResultCut       Code = "result-cut"
	ResultRejected  Code = "result-rejected"
	CallFailed      Code = "call-failed"
	CallSlow        Code = "call-slow"
	ToolsAdded      Code = "tools-added"
	TaskRequired    Code = "task-required"
	TurnNeverEnds   Code = "turn-never-ends"
)

// A Doc says what one code means, the way a go vet analyzer carries its
// name and its documentation: check -h, the SARIF rules and the findings
// section of docs/check.md are all made from Docs.
type Doc struct {
	Code Code
	// Severity is what the model loses by a finding of the code, unless
	// the finding says otherwise (Finding.Severity); Why says why, in a
	// line, for the severity table of docs/check.md.
	Severity loss.Severity
	Why      string
	// Fails says when a finding of the code makes check exit 1: "always"
	// (a rule broken, or something no client gets past), a condition
	// ("with -require-same-eras"), or "" for never.
	Fails string
	// Rule is the flag that asks for the finding, for the codes that
	// are rules.
	Rule string
	// Short is one line: what was found.
	Short string
	// Help is what it means for a client and what to do about it.
	Help string
	// Fix is what the server's author can change, in a few words; a
	// finding with numbers of its own says it with them (Finding.Fix).
	Fix string
}

// Docs documents every code.
var Docs = []Doc{
	{Code: Unreachable, Severity: loss.Broken, Fails: "always",
		Short: "neither era got a JSON-RPC reply",
		Why:   "no client can use the server",
		Help:  "Neither initialize nor server/discover, each sent to a fresh process or connection, got a JSON-RPC reply: the command was not found, the server exited at start, the HTTP endpoint refused, answered with an HTML page or a redirect, or stayed silent for all of -timeout. No client can use the server; check exits 3. Where a profile waits longer than -timeout, the finding says so.",
		Fix:   "make the command start and answer initialize"},
	{Code: StdoutGarbage, Severity: loss.Degraded, Fails: "always",
		Short: "stdout carries lines that are not JSON-RPC",
		Why:   "a client may drop the connection on a line it cannot read; which do is not measured",
		Help:  "Over stdio, standard output is the protocol channel: a line that is not JSON-RPC (a banner, a log line) can make a client drop the connection. Log to standard error instead.",
		Fix:   "write logs to stderr: stdout is for JSON-RPC only"},
	{Code: ToolsFailed, Severity: loss.Broken, Fails: "always",
		Short: "tools/list failed",
		Why:   "no client gets the server's tools",
		Help:  "tools/list answered with an error or no valid result, so a client gets no tools from the server. A -32601 from a server that declares no tools capability is the note no-tools instead.",
		Fix:   "answer tools/list with a result (an empty list if none)"},
	{Code: EndsSession, Severity: loss.Broken, Fails: "always",
		Short: "a client ends its whole session when a method fails",
		Why:   "the client loses this server and every other",
		Help:  "The server answered initialize, server/discover or tools/list with an error, and a client profile measured that its client then ends its whole session (Continue CLI 1.5.47 exits 1 when initialize fails: \"MCP server(s) failed to load\"), with every other server. Answer the method.",
		Fix:   "answer the method"},
	{Code: ProbeExit, Severity: loss.Broken, Fails: "always",
		Short: "the server exits on server/discover",
		Why:   "probing clients lose the server",
		Help:  "The server exited when sent server/discover, the modern era's first request. A client that probes on the same process (Claude Code 2.1.285 did in 20 of 20 runs) loses the server; over HTTP, every probing client does. Answer a method you do not know with -32601 (method not found).",
		Fix:   "answer an unknown method with -32601 and keep running"},
	{Code: FallbackFailed, Severity: loss.Broken, Fails: "always",
		Short: "initialize fails after the probe, on the same process",
		Why:   "probing clients lose the server",
		Help:  "After server/discover got an error or no answer, initialize on the same process, as a probing client sends it next, did not succeed: probing clients cannot fall back to the legacy era.",
		Fix:   "answer initialize after an unknown method, on the same process"},
	{Code: Invisible, Severity: loss.Degraded, Fails: "when the text holds Unicode tag characters",
		Short: "invisible characters in text the model reads",
		Why:   "the model reads text that a person reviewing the server does not see",
		Help:  "The instructions, a tool's name or description, or the server's name hold characters a reader does not see and a model reads: zero-width characters, bidirectional controls and other format characters warn; Unicode tag characters, invisible ASCII that can spell hidden text, fail. The finding spells out which, and where.",
		Fix:   "remove the invisible characters"},
	{Code: MaxChars, Severity: loss.Info, Fails: "always", Rule: "-max-chars",
		Short: "instructions longer than -max-chars",
		Why:   "a limit you set; the model loses nothing by it alone",
		Help:  "An era's instructions are longer than -max-chars characters (Unicode code points).",
		Fix:   "shorten the instructions, or raise -max-chars"},
	{Code: MaxTokens, Severity: loss.Info, Fails: "always", Rule: "-max-tokens",
		Short: "instructions estimated above -max-tokens",
		Why:   "a limit you set; the model loses nothing by it alone",
		Help:  "An era's instructions are estimated at more tokens than -max-tokens. The estimate is tiktoken o200k_base, not the client's tokenizer.",
		Fix:   "shorten the instructions, or raise -max-tokens"},
	{Code: Require, Severity: loss.Degraded, Fails: "always", Rule: "-require",
		Short: "a -require phrase is missing or cut off",
		Why:   "a phrase you require does not reach the model whole",
		Help:  "A -require phrase is not in an era's instructions, or a client profile cuts the text before the phrase ends.",
		Fix:   "move the phrase before the smallest cap"},
	{Code: MaxStartup, Severity: loss.Info, Fails: "always", Rule: "-max-startup",
		Short: "the first reply is slower than -max-startup",
		Why:   "a limit you set; the clients' own waits are startup-slow's",
		Help:  "The slowest first reply (from spawn; over HTTP, from the first request) came later than -max-startup.",
		Fix:   "answer initialize before slow setup, or raise -max-startup"},
	{Code: MaxName, Severity: loss.Info, Fails: "always", Rule: "-max-name",
		Short: "a tool's name longer than -max-name",
		Why:   "a limit you set; the clients' own limits are name-cut's and name-dropped's",
		Help:  "A tool's name is longer than -max-name characters: its own name, or the name a client profile measured it gives the tool, with its prefix and the server's name (mcp__SERVER__TOOL).",
		Fix:   "shorten the tool's name, or the server's"},
	{Code: ErasDiffer, Severity: loss.Degraded, Fails: "with -require-same-eras",
		Short: "initialize and server/discover send different instructions",
		Why:   "clients of one era see other instructions than clients of the other",
		Help:  "A client that gets a DiscoverResult never sends initialize, so it sees only the server/discover text; a client that does not probe sees only the initialize text. -require-same-eras makes this a failure.",
		Fix:   "send the same instructions in both eras"},
	{Code: Truncated, Severity: loss.Degraded,
		Short: "a client cuts the instructions",
		Why:   "the model loses the end of the instructions, and is not told",
		Help:  "A client keeps only part of the instructions, by its profile: the rest never reaches the model, and the client says nothing. The finding names the clients and arms, what they keep and the sections lost. Put what matters first, or shorten the text.",
		Fix:   "put what matters first, or shorten the instructions"},
	{Code: ToolsUnoffered, Severity: loss.Broken,
		Short: "a client offers the model none of the server's tools",
		Why:   "the model cannot call the server's tools, nor read their descriptions",
		Help:  "A client profile measured that the first model request of a turn neither defines nor names any of the server's tools, though the client connected the server (Grok CLI 0.0.34 connects its servers in the background after its first request is built). Nothing the server sends reaches the model there; nothing on the server's side changes it.",
		Fix:   "none on the server's side: tell its users"},
	{Code: Unused, Severity: loss.Broken,
		Short: "a client puts none of the instructions in the model's context",
		Why:   "the model gets none of the instructions",
		Help:  "The profile measured that the client received the instructions and that no model request held any of them: for that client the text is lost whole. What the model must know belongs in tool descriptions too.",
		Fix:   "say what matters in tool descriptions too"},
	{Code: ToolTruncated, Severity: loss.Degraded,
		Short: "a client cuts a tool description",
		Why:   "the model loses the end of a tool's description",
		Help:  "A tool's description is longer than a client profile's cap on tool descriptions, or has several lines where the client keeps the first alone (Qwen Code lists each tool with its first line); the rest never reaches the model. A description that starts with a line break then gives the model nothing of it. The finding says when the cap comes from the client's documentation rather than a measurement.",
		Fix:   "put what matters first in the description, or shorten it"},
	{Code: ToolOrder, Severity: loss.Info,
		Short: "tools/list lists the tools in another order the second time",
		Why:   "the model loses nothing; a client that keeps the order misses its prompt cache",
		Help:  "A second tools/list on the same connection listed the tools in another order, or other tools. A client that keeps the server's order then sends the model another tool list after it lists again (a reconnect, a list_changed), and the request's prefix changes: a prompt cache misses from there on (one client's hash-map order sent cache hits below 1%). The 2026-07-28 protocol asks servers for a deterministic tools/list order: sort the tools, by name for instance. Which clients keep the server's order, and whether their requests keep a stable prefix from turn to turn, is measured in docs/clients.md, \"Sessions of many turns\".",
		Fix:   "sort the tools, by name for instance"},
	{Code: DropsServer, Severity: loss.Broken,
		Short: "a client drops the whole server when a method fails",
		Why:   "the client loses the whole server: its tools and its instructions",
		Help:  "The server answered tools/list (or server/discover) with an error, and a client profile measured that its client then drops the whole server: its instructions do not reach the model either (Codex CLI 0.169.0 and opencode when tools/list fails). Other clients keep the instructions; the views say which.",
		Fix:   "answer the method"},
	{Code: NameCut, Severity: loss.Degraded,
		Short: "a client cuts a tool's name",
		Why:   "the model sees a cut name, and may not tell the tool by it",
		Help:  "With the prefix a client puts before it (mcp__SERVER__), the tool's name is longer than a name the client's profile measured it cut (instrlab run -matrix surface, docs/surface.md), or past the client's tool-name budget where the name a character past it was cut (instrlab budget -budget name, docs/budgets.md): the model sees the cut name, often with a hash after it. Shorten the tool's name, or the server's.",
		Fix:   "shorten the tool's name (or the server's)"},
	{Code: NameDropped, Severity: loss.Broken,
		Short: "a client does not offer a tool, by its name",
		Why:   "the model cannot call the tool",
		Help:  "A client profile measured that the client does not offer a tool whose name is this long with its prefix (a measured name, or past its tool-name budget), or holds a character of a kind it does not offer (Claude Code 2.1.332 does not offer a name of 138 characters with its prefix): the model cannot call the tool. Use letters, digits, '_' and '-'.",
		Fix:   "shorten the name; use letters, digits, '_' and '-'"},
	{Code: NameReserved, Severity: loss.Broken,
		Short: "a client hides a tool named as one of its own, or runs its own",
		Why:   "the model cannot call the tool",
		Help:  "A client profile measured that the client does not offer a server's tool with this name, one its own tools have, or offers it but runs its own tool when the model calls it (the lab's surface-reserved row serves a tool of each name the pinned clients give their own tools, docs/surface.md): Gemini CLI 0.61.0 leaves out its own write_file, replace, run_shell_command and web_fetch in a headless run, and every server tool of those names with them; Continue CLI 1.5.47 offers a server's Read beside its own and runs its own. The model cannot call the tool. Rename it; a name behind the client's prefix does not help.",
		Fix:   "rename the tool: the client hides server tools named as its own"},
	{Code: NameRenamed, Severity: loss.Info,
		Short: "a client renames a tool",
		Why:   "the model calls the tool by another name; the call still reaches the server",
		Help:  "A client profile measured that the client gives a tool with a name of this kind (dots, hyphens, letters outside ASCII) another name: the model calls it by that name, and the call still reaches the server.",
		Fix:   "nothing, unless your texts name the tool"},
	{Code: SchemaLost, Severity: loss.Degraded,
		Short: "a client drops or rewrites keywords of a tool's input schema",
		Why:   "the model no longer sees a constraint of the input it needs; a keyword no model reads ($schema, $id, title, examples, default) is info",
		Help:  "A client profile measured that the client drops keywords of an input schema (Codex CLI 0.171.0: pattern, format, bounds, default) or rewrites them (const as enum) before the model sees the tool: a constraint the model never sees, it may not keep. The finding names the keywords and the measured example. Say what matters in the description too, and check the input on the server.",
		Fix:   "say the constraint in the description too"},
	{Code: ToolsAdded, Severity: loss.Degraded,
		Short: "a client never gives the model a tool the server adds later",
		Why:   "the model never has the tools the server adds; info when the server only declares that it may",
		Help:  "The server declares tools.listChanged, or sent notifications/tools/list_changed during check's -call, and a client profile measured what the client does then: it never lists the tools again (Codex CLI 0.171.0, Cline CLI 3.0.65, Qwen Code 0.24.4), starts the server anew for each call (ADK for TypeScript 2.0.0), lists them again without offering the new tool, or over 2026-07-28 opens no subscriptions/listen stream to hear it (the AI SDK 7.0.185, Mastra 2.0.0, the OpenAI Agents SDK 0.20.0). A tool added after the start never reaches the model there: degraded when the server announced a change during -call, info when it only declares the capability (many SDKs declare it by default). A client that lists the tools again but gives the model the new tool only after the announcing call's result (Claude Code 2.1.332, Droid 0.225.2) is info too. Offer every tool from the first tools/list where it matters.",
		Fix:   "offer every tool in the first tools/list; do not rely on tools/list_changed in these clients"},
	{Code: TaskRequired, Severity: loss.Broken,
		Short: "a client cannot call a tool that must be called as a task",
		Why:   "the model calls the tool, and the client ends the call itself: the tool is lost; info where the client calls it as any tool, without a task",
		Help:  "The tool's execution.taskSupport is \"required\" (the 2025-11-25 protocol's tasks), and a client profile measured what the client does with such a tool (the protocol matrix's protocol_task): in seven (Continue CLI 1.5.47, Droid 0.225.2, Kilo Code CLI 7.7.9, opencode 1.18.33, LangChain.js 1.1.4, mcp-use 1.34.6, the OpenAI Agents SDK 0.20.0 over 2025-11-25) the TypeScript SDK's client ends the model's call itself, -32600 \"requires task-based execution\", so the tool is lost to the model (broken); the others call it as any tool, without a task (info: the server gets a plain call and the client waits for its result). No pinned client was seen to call a tool as a task in its default arm (Copilot CLI with its MCP_TASKS flag takes a task the server makes under the tasks extension, and polls it). Make taskSupport \"optional\" unless a task is the only way the tool can work.",
		Fix:   "make execution.taskSupport \"optional\", not \"required\""},
	{Code: TurnNeverEnds, Severity: loss.Broken,
		Short: "a client's turn never ends when a tool's result asks for what it does not answer",
		Why:   "the model never gets the tool's result, and the user's turn waits for good",
		Help:  "check -call called the tool in the 2026-07-28 era and its result was resultType input_required, asking the client for sampling, an elicitation or its roots; a client profile measured, with that ask alone in a turn of its own (the protocol matrix's protocol-asks row), that the client never retries the call with an answer and never makes another model request: its run timed out (GitHub Copilot CLI 1.0.102 with sampling). The model never gets the result, and the user's turn never ends. Complete the call without the ask for these clients, or ask in another way.",
		Fix:   "complete the call without that ask: the client never answers it"},
	{Code: ResultForm, Severity: loss.Degraded,
		Short: "a client gives the model one form of a structured result",
		Why:   "the model gets one part of the result and loses the other",
		Help:  "The tool has an output schema, so its results carry structuredContent beside their content text, and a client profile measured that the client gives the model only one of the two (Claude Code 2.1.328 the structuredContent JSON, opencode the content text). Put what the model needs in both.",
		Fix:   "put what the model needs in both content text and structuredContent"},
	{Code: ResultCut, Severity: loss.Degraded,
		Short: "a client does not give the model a tool's result whole",
		Why:   "the model gets part of the result",
		Help:  "check -call called the tool, and its result is longer than the longest a client profile measured the client to give the model whole (instrlab budget -budget result, docs/budgets.md: Cline CLI 3.0.65 7,961 characters, Claude Code 2.1.332 50,000): the finding says what the model gets instead, as measured (the start and a marker, a saved file's path, an error). A result between the budget counted in characters and the budget counted in UTF-8 bytes says the client's unit decides, not measured. Return less, or page it.",
		Fix:   "return less, or page the result"},
	{Code: ResultRejected, Severity: loss.Broken,
		Short: "a client gives the model no part of a result whose structuredContent is not an object",
		Why:   "the model gets none of the result",
		Help:  "check -call called the tool, and its result's structuredContent is null, a string or an array, where the specification requires an object; a client profile measured, with the lab's results of that shape (instrlab run -matrix surface -row surface-bad), that the client gives the model neither the content text nor the structuredContent of such a result. A client that was not measured with the shape says not measured. Send structuredContent as an object, or leave it out.",
		Fix:   "send structuredContent as an object, or leave it out"},
	{Code: CallFailed, Severity: loss.Degraded,
		Short: "a tool check -call called did not return a result",
		Why:   "the tool returned no result, so nothing of it was predicted",
		Help:  "The tool answered -call with a JSON-RPC error, no reply within -timeout, a result that is not a CallToolResult, or the server exited: nothing of it can be predicted; or the server's tools/list does not name it, and it was not called (with -config, name the server with -server). The finding says which.",
		Fix:   "make the tool answer the call"},
	{Code: CallSlow, Severity: loss.Broken,
		Short: "a client gives up on a tool check -call called before it answers",
		Why:   "the model gets the client's error, not the result",
		Help:  "check -call called the tool, and it took at least as long as a client profile measured the client to wait for a tool's result (instrlab budget -budget call, docs/budgets.md: a tool answering after a set time, bisected to a second): the client gives up first, and the finding says what it does then (its notifications/cancelled, what the model gets instead). Between the longest delay the client waited for and the shortest it gave up on is a race (degraded); longer than the longest measured, of a client that waited for it, is not measured (info). A call check gave up on (no reply within -timeout) is call-failed's: raise -timeout to time it. Answer sooner: return what is ready and let the model call again for the rest.",
		Fix:   "answer within the client's wait: return what is ready, and let the model call again"},
	{Code: TextsUnseen, Severity: loss.Info,
		Short: "what a client does with the server's prompts and resources",
		Why:   "what the client does with prompts and resources, for the record",
		Help:  "The server declares prompts or resources, and a client profile measured what the client does with them: whether it asks for them at all, whether any of their texts (names, titles, descriptions) reach the model (none did in any of the ten pinned clients), and whether a resource reaches the model when the model reads it with the client's own resource tool (whole in Claude Code, Codex CLI, Gemini CLI, Kilo Code CLI, opencode and Qwen Code; Cline, Continue, Copilot CLI and Droid offer no such tool). Put what the model must know in the instructions or a tool's description.",
		Fix:   "put what the model must know in the instructions or a description"},
	{Code: NonBMP, Severity: loss.Info,
		Short: "characters outside the BMP before a cut",
		Why:   "a cut may come earlier than predicted; not measured",
		Help:  "The kept part holds characters outside the Basic Multilingual Plane (emoji, rare CJK). A client that counts UTF-16 units counts each as two and cuts earlier than a count of characters says; not measured unless the profile's unit is UTF-16.",
		Fix:   "nothing, unless the text near the cut matters"},
	{Code: SettingIgnored, Severity: loss.Degraded,
		Short: "a cap setting the client ignores",
		Why:   "the cap you set does not apply: the client keeps its default",
		Help:  "The environment sets a client's cap setting (as CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH) to a value the client does not accept as it parses it (25,000 is not plain digits), so its default cap holds.",
		Fix:   "write the value in plain digits"},
	{Code: StartupSlow, Severity: loss.Degraded,
		Short: "the server may start too slowly for a client",
		Why:   "the client may connect without the server (a race); past its wait it does (broken)",
		Help:  "The slowest first reply took more than half of how long a client waits for a server to start, or the server did not answer within check's -timeout. The finding says per client whether the server makes it in time, from the wait its profile measured (instrlab budget, docs/budgets.md), else its documented wait (Claude Code 2.1.285: MCP_TIMEOUT, 30 s by default), else says the wait is not measured.",
		Fix:   "answer initialize before slow setup, or start faster"},
	{Code: LegacyRefused, Severity: loss.Broken,
		Short: "initialize refused with -32022",
		Why:   "clients that do not probe lose the server",
		Help:  "The server refused initialize with -32022: clients that do not probe with server/discover cannot use it.",
		Fix:   "answer initialize too"},
	{Code: LegacyFailed, Severity: loss.Broken,
		Short: "initialize failed",
		Why:   "clients that do not probe lose the server",
		Help:  "The legacy handshake (initialize, protocol 2025-11-25) did not succeed: clients that do not probe cannot use the server.",
		Fix:   "answer initialize with protocol 2025-11-25"},
	{Code: ProbeSilent, Severity: loss.Degraded,
		Short: "no answer to server/discover within -timeout",
		Why:   "probing clients wait out their probe timeout before they connect",
		Help:  "A probing client waits out its whole probe timeout before it falls back to initialize (check did not wait beyond -timeout). Answer a method you do not know with -32601.",
		Fix:   "answer an unknown method with -32601 at once"},
	{Code: ProbeInvalid, Severity: loss.Degraded,
		Short: "server/discover got a reply that is not JSON-RPC",
		Why:   "what a probing client does next is not measured",
		Help:  "The reply to server/discover is not a JSON-RPC response a client can read; what a client does next was not measured.",
		Fix:   "answer server/discover with a JSON-RPC response"},
	{Code: Schema, Severity: loss.Degraded,
		Short: "a reply departs from its era's schema",
		Why:   "a strict client may refuse the reply; which do is not measured",
		Help:  "An initialize result or a DiscoverResult lacks a field its era requires or holds one in a form the schema does not allow (ttlMs, cacheScope, resultType, _meta server info); a strict client may refuse it.",
		Fix:   "send what the era's schema requires, as it allows"},
	{Code: UnsetVar, Severity: loss.Degraded,
		Short: "a ${VAR} in the config is not set",
		Why:   "the server gets the text ${VAR} where a value was meant",
		Help:  "The config names ${VAR} without a default and the variable is not set: Claude Code passes it to the server as written, \"${VAR}\", and reports an error.",
		Fix:   "set the variable, or give it a default: ${VAR:-value}"},
	{Code: ProbeOK, Severity: loss.Info,
		Short: "server/discover answered -32601",
		Why:   "the behaviour to have",
		Help:  "A legacy server answers server/discover with -32601 (method not found), so a probing client falls back to initialize at once: the behaviour to have.",
		Fix:   "nothing"},
	{Code: ProbeOtherError, Severity: loss.Info,
		Short: "server/discover answered another error",
		Why:   "clients fall back on any error",
		Help:  "Clients fall back to initialize on any error, though -32601 (method not found) is the usual answer.",
		Fix:   "nothing needed; -32601 is the usual answer"},
	{Code: NoTools, Severity: loss.Info,
		Short: "no tools capability, and tools/list answers -32601",
		Why:   "consistent: a client lists no tools",
		Help:  "The server declares no tools capability and answers tools/list with -32601, which is consistent: a client lists no tools.",
		Fix:   "nothing"},
	{Code: NoInstructions, Severity: loss.Info,
		Short: "an era's reply has no instructions field",
		Why:   "nothing to lose",
		Help:  "The era's reply holds no instructions, so no client puts any of the server's text in the model's context for it.",
		Fix:   "nothing; instructions are optional"},
	{Code: Setting, Severity: loss.Info,
		Short: "a cap setting in the environment changes a client's cap",
		Why:   "a cap you set applies",
		Help:  "The environment check runs in sets a client's cap setting to a value the client accepts; the views use that cap instead of the default.",
		Fix:   "nothing"},
}

// Doc is the code's documentation; a code without one (none, as a test
// checks) gets a Doc that says so.
func (c Code) Doc() Doc {
	for _, d := range Docs {
		if d.Code == c {
			return d
		}
	}
	return Doc{Code: c, Severity: loss.Degraded, Short: string(c), Help: "No documentation for the finding " + string(c) + "."}
}

// docOrder is each code's place in Docs, the order its losses are listed
// in: made once, as verdicts ask for it for every view.
var docOrder = sync.OnceValue(func() map[string]int {
	order := make(map[string]int, len(Docs))
	for i, d := range Docs {
		order[string(d.Code)] = i
	}
	return order
})

// Levels is how the doc's severity reads with when it fails: "broken",
// "degraded (fails with -require-same-eras)", "info (fails always)".
func (d Doc) Levels() string {
	switch d.Fails {
	case "":
		return string(d.Severity)
	case "always":
		return string(d.Severity) + " (fails)"
	}
	return string(d.Severity) + " (fails " + d.Fails + ")"
}

// WriteDocs lists every code for check -h: its severity, code and short
// line, wrapped to width.
func WriteDocs(w io.Writer, width int) error {
	var b strings.Builder
	b.WriteString("Findings (instrlab help finding CODE says more of each):\n")
	for _, d := range Docs {
		head := fmt.Sprintf("  %-8s  %-17s ", d.Severity, d.Code)
		short := d.Short
		if d.Fails != "" && d.Fails != "always" {
			short += "; fails " + d.Fails
		} else if d.Fails == "always" {
			short += "; fails"
		}
		b.WriteString(table.Hang(head, short, width))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteHelp writes what instrlab help finding CODE prints: what the
// finding means, its severity and why, when it fails check, and how to
// fix it, wrapped to width.
func WriteHelp(w io.Writer, c Code, width int) error {
	d := c.Doc()
	var b strings.Builder
	b.WriteString(table.Hang("", string(d.Code)+": "+d.Short, width))
	b.WriteString("\n")
	b.WriteString(table.Hang("", d.Help, width))
	b.WriteString("\n")
	b.WriteString(table.Hang("severity  ", string(d.Severity)+": "+d.Why, width))
	switch d.Fails {
	case "":
		b.WriteString(table.Hang("fails     ", "never: check exits 0 on it", width))
	case "always":
		b.WriteString(table.Hang("fails     ", "always: check exits 1 on it", width))
	default:
		b.WriteString(table.Hang("fails     ", d.Fails+": check exits 1 on it", width))
	}
	if d.Rule != "" {
		b.WriteString(table.Hang("rule      ", d.Rule, width))
	}
	b.WriteString(table.Hang("fix       ", d.Fix, width))
	_, err := io.WriteString(w, b.String())
	return err
}

// HelpTopic is "instrlab help finding [CODE]": every code in a line
// each, or what one means, its severity, when it fails and its fix; a
// usage error for a code that is none, or more than one.
func HelpTopic(args []string, w io.Writer) error {
	width := table.Width(w)
	switch {
	case len(args) == 0:
		return WriteDocs(w, width)
	case len(args) > 1:
		return cli.UsageError{Msg: "help finding: one code at a time"}
	case !Code(args[0]).Known():
		return cli.UsageError{Msg: "help finding: no finding \"" + untrusted.EscapeLine(args[0]) + "\" (instrlab help finding lists them)"}
	}
	return WriteHelp(w, Code(args[0]), width)
}

// Known reports whether c is a code check reports.
func (c Code) Known() bool {
	for _, d := range Docs {
		if d.Code == c {
			return true
		}
	}
	return false
}

// WriteDocsMarkdown writes docs/codes.md, the page of check's finding
// codes: the table of every code (code, severity and when it fails, what
// it means, the fix), then the severity table, each severity with the
// codes at it and why. Nothing of it is written by hand.
func WriteDocsMarkdown(w io.Writer) error {
	var b strings.Builder
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	b.WriteString("# instrlab check: the finding codes\n\n" +
		"Written by `go test ./internal/profiles/assess -run DocsFindings -update` from the codes " +
		"(internal/profiles/assess/codes.go), as `instrlab help finding CODE` prints each; a test fails " +
		"when this page differs. What a severity, a failing finding and a problem are: " +
		"[check.md](check.md#findings).\n")
	b.WriteString("\n| code | severity | what it means | fix |\n|---|---|---|---|\n")
	for _, d := range Docs {
		level := d.Levels()
		if d.Rule != "" {
			level += " (rule `" + d.Rule + "`)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", d.Code, level, cell(d.Help), cell(d.Fix))
	}
	b.WriteString("\n### Severity\n\nThe severity of each code, and why (a finding may say otherwise: a schema keyword no model reads is info; a server later than a client waits is broken, one within its wait info):\n\n| severity | code | why |\n|---|---|---|\n")
	for _, sev := range loss.Severities {
		for _, d := range Docs {
			if d.Severity == sev {
				fmt.Fprintf(&b, "| %s | `%s` | %s |\n", sev, d.Code, cell(d.Why))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
