package lab

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/labvocab"
)

// Subcommand is how the instrlab executable is asked to serve the lab: a
// client's MCP config starts it as "instrlab serve lab" and then Args.
var Subcommand = []string{"serve", "lab"}

// Args are the command-line flags of "instrlab serve lab": what a client's
// MCP config passes to start the lab. flags is the one list of them, which
// Flags registers, Args writes and ParseArgs reads: a new option is a
// field and a line there. A zero field means the flag's default, in what
// Args writes and in what Validate and Config read.
type Args struct {
	Instr          string        // -instr: none, ascii:N or japanese:N
	InstrFile      string        // -instr-file: a file's text, unchanged
	ToolDesc       string        // -tool-desc: KIND:N generated text as lookup_part's description
	ToolDescFile   string        // -tool-desc-file: a file's text as lookup_part's description
	Seed           string        // -seed: mixed into the generated texts' codewords
	Surface        string        // -surface: groups of SurfaceGroups, or all
	ResultSize     string        // -result-size: KIND:N, the text of the size group's results
	Tools          int           // -tools: this many tools in all, the lab's own three first
	NameLength     int           // -tool-name-length: also a tool whose name is this many characters
	HangFor        time.Duration // -hang-for: the hang group's bad_hang answers after this long (0: never)
	Eras           Mode          // -eras: ModeLegacy, ModeBoth or ModeModern
	InitDelay      time.Duration // -init-delay
	DiscoverDelay  time.Duration // -discover-delay
	ReadyAfter     time.Duration // -ready-after
	DiscoverTTL    time.Duration // -discover-ttl: the DiscoverResult's ttlMs
	CacheScope     string        // -cache-scope: the DiscoverResult's cacheScope
	DropSession    int           // -drop-session: end an HTTP session after this many requests in it
	DropAfterCalls int           // -drop-after-calls: end the HTTP session of the lab's N-th tools/call after it
	SessionTexts   bool          // -session-texts: each initialize after the first gets a text of its own
	OnUnknown      string        // -on-unknown: UnknownError, UnknownCrash or UnknownHang
	Fail           string        // -fail: methods answered with an error, separated by commas (FailMethods)
	ToolMeta       string        // -tool-meta: a JSON object, lookup_part's _meta
	ToolOrder      string        // -tool-order: OrderName or OrderRotate
	Log            string        // -log: the message log's path
	HTTP           string        // -http: serve Streamable HTTP at this address
	AllowRemote    bool          // -allow-remote: let HTTP bind beyond loopback
	Print          bool          // -print: print the texts and exit
}

// An argFlag is one flag: its name, the field it sets (a *string, *int,
// *time.Duration or *bool), its default and its usage line.
type argFlag struct {
	name  string
	field any
	def   any
	usage string
}

func (a *Args) flags() []argFlag {
	return []argFlag{
		{"instr", &a.Instr, "ascii:1000", "instructions: none (no field) or KIND:N, N code points of generated text, KIND ascii, japanese, emoji, cjkb (CJK Extension B) or combining"},
		{"instr-file", &a.InstrFile, "", "serve this file's text unchanged as the instructions (instead of -instr)"},
		{"tool-desc", &a.ToolDesc, "", "describe the tool lookup_part with KIND:N code points of generated text (as -instr) instead of its own description"},
		{"tool-desc-file", &a.ToolDescFile, "", "describe the tool lookup_part with this file's text, unchanged"},
		{"seed", &a.Seed, "", "mix this into the codewords of the generated texts, so that several labs in one client's session serve texts told apart by their codewords"},
		{"surface", &a.Surface, "", "also serve the surface groups, separated by commas: " + surfaceGroupList() + ", or all (all but hang): tools whose results, schemas, names and _meta carry codewords, prompts and resources (docs/surface.md)"},
		{"result-size", &a.ResultSize, DefaultResultSize, "the text of the size group's results: KIND:N code points of generated text (as -instr)"},
		{"tools", &a.Tools, 0, fmt.Sprintf("serve this many tools in all, %d to %d: the lab's own three, then generated ones (tool_0004, ...), each described in about 350 characters, for the count at which a client defers or drops tools (0: its own three)", len(labvocab.OwnTools), maxTools)},
		{"tool-name-length", &a.NameLength, 0, fmt.Sprintf("also serve a tool whose name is this many characters, 1 to %d (lname, then the alphabet over and over), for the longest name a client accepts", maxToolNameLength)},
		{"hang-for", &a.HangFor, time.Duration(0), "the hang group's bad_hang answers after this long, with a text of its own, unless the call was cancelled first (0: it never answers), for how long a client waits for a tool's result"},
		{"eras", (*string)(&a.Eras), string(ModeLegacy), "the protocol eras the lab speaks, a `list`: legacy (initialize), modern (server/discover) or both, legacy,modern (each with a text and codewords of its own)"},
		{"init-delay", &a.InitDelay, time.Duration(0), "hold the initialize reply this long"},
		{"discover-delay", &a.DiscoverDelay, time.Duration(0), "hold the server/discover reply this long"},
		{"ready-after", &a.ReadyAfter, time.Duration(0), "hold the reply that completes the handshake until this long after the process started (however long the start took, if less)"},
		{"discover-ttl", &a.DiscoverTTL, time.Duration(0), "the DiscoverResult's ttlMs, how long a client may keep it (0: the SDK's, 0, stale at once); whole milliseconds"},
		{"cache-scope", &a.CacheScope, "", "the DiscoverResult's cacheScope: public or private (default: the SDK's, public)"},
		{"drop-session", &a.DropSession, 0, "over -http with -eras legacy: answer 404 to the request after this many in a session, and every later one, as a server that lost the session mid-run"},
		{"drop-after-calls", &a.DropAfterCalls, 0, "over -http with -eras legacy: after the lab's N-th tools/call, answer 404 to every later request in that call's session, as a server that lost the session between two calls (between two turns of a conversation); a session the client opens then lives on"},
		{"session-texts", &a.SessionTexts, false, "give each initialize after the lab's first a text of its own (its number mixed into the codewords), so that a client that opens a new session shows whether it takes the new text; generated texts only"},
		{"on-unknown", &a.OnUnknown, UnknownError, "an unknown method before the handshake: error (-32601), crash or hang"},
		{"fail", &a.Fail, "", "answer these methods with a JSON-RPC error (-32603), as a broken server does: tools/list, initialize or server/discover, separated by commas"},
		{"tool-meta", &a.ToolMeta, "", "give the tool lookup_part this _meta, a JSON object, as in {\"anthropic/alwaysLoad\":true}"},
		{"tool-order", &a.ToolOrder, OrderName, "the order of the tools in each tools/list reply: name (the SDK's, by name) or rotate (the n-th listing of the process moves the first n tools, in name order, to the end: a new order on every listing, the same for the same count)"},
		{"log", &a.Log, "", "append every message received and sent to this JSON Lines file"},
		{"http", &a.HTTP, "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio (a bare :PORT binds 127.0.0.1)"},
		{"allow-remote", &a.AllowRemote, false, "let -http bind an address beyond loopback (the lab then serves whoever can reach it)"},
		{"print", &a.Print, false, "print the instructions text, its codewords and markers, and exit"},
	}
}

// DefaultResultSize is -result-size's default: 150,000 characters, more
// than 25,000 tokens of English (the default cap Claude Code's
// documentation gives MAX_MCP_OUTPUT_TOKENS), so that a cap of that order
// is measured where it cuts.
const DefaultResultSize = "ascii:150000"

// Flags registers every flag of the lab on fs, with its default, writing
// into a.
func (a *Args) Flags(fs *flag.FlagSet) {
	for _, f := range a.flags() {
		switch p := f.field.(type) {
		case *string:
			fs.StringVar(p, f.name, f.def.(string), f.usage)
		case *int:
			fs.IntVar(p, f.name, f.def.(int), f.usage)
		case *time.Duration:
			fs.DurationVar(p, f.name, f.def.(time.Duration), f.usage)
		case *bool:
			fs.BoolVar(p, f.name, f.def.(bool), f.usage)
		}
	}
}

// Args returns the flags that set a's non-zero fields, each as "-name"
// and its value (a bool as "-name" alone), in the order of flags.
func (a Args) Args() []string {
	var args []string
	for _, f := range a.flags() {
		switch p := f.field.(type) {
		case *string:
			if *p != "" {
				args = append(args, "-"+f.name, *p)
			}
		case *int:
			if *p != 0 {
				args = append(args, "-"+f.name, strconv.Itoa(*p))
			}
		case *time.Duration:
			if *p != 0 {
				args = append(args, "-"+f.name, p.String())
			}
		case *bool:
			if *p {
				args = append(args, "-"+f.name)
			}
		}
	}
	return args
}

// rowKeys are the JSON keys of the flags a matrix row sets
// (docs/matrix.md), by flag name: the lab's settings as JSONMembers
// writes and SetFromJSON reads them. Flags not listed (-log, -http, -seed,
// ...) are the runner's, never a row's.
var rowKeys = map[string]string{
	"instr": "instr", "instr-file": "instr_file", "tool-desc": "tool_description", "tool-desc-file": "tool_description_file",
	"surface": "surface", "result-size": "result_size", "tools": "tools", "tool-name-length": "tool_name_length", "hang-for": "hang_for", "eras": "eras",
	"init-delay": "init_delay", "discover-delay": "discover_delay", "ready-after": "ready_after", "discover-ttl": "discover_ttl",
	"cache-scope": "cache_scope", "drop-session": "drop_session", "drop-after-calls": "drop_after_calls",
	"session-texts": "session_texts", "on-unknown": "on_unknown", "fail": "fail", "tool-meta": "tool_meta", "tool-order": "tool_order",
}

// rowKeysBefore are keys rows used before the glossary, by the key now.
var rowKeysBefore = map[string]string{"eras": "era"}

// JSONMembers writes a's settings that a matrix row holds, the non-zero
// ones, as the members of a JSON object without its braces, in the order
// of the flags: durations as "8s", -tool-meta as its JSON object.
func (a Args) JSONMembers() ([]byte, error) {
	var b []byte
	for _, f := range a.flags() {
		key := rowKeys[f.name]
		if key == "" {
			continue
		}
		var v any
		switch p := f.field.(type) {
		case *string:
			if *p == "" {
				continue
			}
			v = *p
			if f.name == "tool-meta" {
				v = json.RawMessage(*p)
			}
		case *int:
			if *p == 0 {
				continue
			}
			v = *p
		case *time.Duration:
			if *p == 0 {
				continue
			}
			v = p.String()
		case *bool:
			if !*p {
				continue
			}
			v = true
		}
		value, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		if len(b) > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, key)
		b = append(append(b, ':'), value...)
	}
	return b, nil
}

// SetFromJSON sets a's settings from the members of the JSON object obj
// that a matrix row holds (JSONMembers' keys, and "era", -eras' key
// before the glossary), leaving the others alone.
func (a *Args) SetFromJSON(obj []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return err
	}
	for _, f := range a.flags() {
		key := rowKeys[f.name]
		if key == "" {
			continue
		}
		raw, ok := m[key]
		if !ok {
			raw, ok = m[rowKeysBefore[key]]
		}
		if !ok || string(raw) == "null" {
			continue
		}
		var err error
		switch p := f.field.(type) {
		case *string:
			if f.name == "tool-meta" {
				*p = string(raw)
				continue
			}
			if err = json.Unmarshal(raw, p); err == nil && f.name == "eras" {
				(*Mode)(p).UnmarshalText([]byte(*p)) // "dual" as legacy,modern
			}
		case *int:
			err = json.Unmarshal(raw, p)
		case *bool:
			err = json.Unmarshal(raw, p)
		case *time.Duration:
			var d string
			if err = json.Unmarshal(raw, &d); err == nil {
				*p, err = time.ParseDuration(d)
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", key, err)
		}
	}
	return nil
}

// ParseArgs reads the flags of "instrlab serve lab", as a client's MCP
// config passes them, and checks those that exclude each other.
func ParseArgs(args []string) (Args, error) {
	fs := flag.NewFlagSet(strings.Join(Subcommand, " "), flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var a Args
	a.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return Args{}, err
	}
	if fs.NArg() > 0 {
		return Args{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return a, a.Check(fs)
}

// Check reports flags of fs, parsed into a, that exclude each other.
func (a Args) Check(fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["instr"] && set["instr-file"]:
		return errors.New("-instr and -instr-file are exclusive")
	case set["tool-desc"] && set["tool-desc-file"]:
		return errors.New("-tool-desc and -tool-desc-file are exclusive")
	case a.Print && (set["http"] || set["log"]):
		return errors.New("-print serves nothing; drop -http and -log")
	case a.AllowRemote && !set["http"]:
		return errors.New("-allow-remote applies to -http only")
	case (a.DropSession != 0 || a.DropAfterCalls != 0) && !set["http"]:
		return errors.New("-drop-session and -drop-after-calls apply to -http only: stdio has no sessions")
	}
	return nil
}

// withDefaults returns a with every zero field set to its flag's default.
func (a Args) withDefaults() Args {
	for _, f := range a.flags() {
		switch p := f.field.(type) {
		case *string:
			if *p == "" {
				*p = f.def.(string)
			}
		case *int:
			if *p == 0 {
				*p = f.def.(int)
			}
		case *time.Duration:
			if *p == 0 {
				*p = f.def.(time.Duration)
			}
		case *bool:
			*p = *p || f.def.(bool)
		}
	}
	return a
}

// Validate checks a's values as Config does (the instructions, the era,
// -on-unknown, the delays) without reading InstrFile: a matrix checks its
// rows with it before any run starts.
func (a Args) Validate() error {
	_, err := a.config(false)
	return err
}

// Config is the lab's configuration as a sets it: the instructions parsed
// (or read from InstrFile) and every value checked. The message log is
// the caller's to open.
func (a Args) Config() (Config, error) { return a.config(true) }

func (a Args) config(readFile bool) (Config, error) {
	a = a.withDefaults()
	eras, err := ParseMode(string(a.Eras))
	if err != nil {
		return Config{}, err
	}
	cfg := Config{Eras: eras, InitDelay: a.InitDelay, DiscoverDelay: a.DiscoverDelay, ReadyAfter: a.ReadyAfter, OnUnknown: a.OnUnknown,
		DiscoverTTL: a.DiscoverTTL, CacheScope: a.CacheScope, DropSession: a.DropSession, DropAfterCalls: a.DropAfterCalls, SessionTexts: a.SessionTexts, ToolOrder: a.ToolOrder}
	if a.Fail != "" {
		cfg.Fail = strings.Split(a.Fail, ",")
	}
	if a.ToolMeta != "" {
		if err := json.Unmarshal([]byte(a.ToolMeta), &cfg.ToolMeta); err != nil || cfg.ToolMeta == nil {
			return Config{}, fmt.Errorf("-tool-meta %q: want a JSON object, as in {\"anthropic/alwaysLoad\":true}", a.ToolMeta)
		}
	}
	switch {
	case a.InstrFile == "":
		cfg.Instructions, err = ParseInstructions(a.Instr)
		cfg.Instructions.Seed = a.Seed
	case readFile:
		cfg.Instructions, err = instructionsFile(a.InstrFile)
	}
	if err != nil {
		return Config{}, fmt.Errorf("-instr: %w", err)
	}
	if a.ToolDesc != "" || (a.ToolDescFile != "" && readFile) {
		var desc Instructions
		switch {
		case a.ToolDesc != "" && a.ToolDescFile != "":
			err = errors.New("-tool-desc and -tool-desc-file are exclusive")
		case a.ToolDescFile != "":
			desc, err = instructionsFile(a.ToolDescFile)
		default:
			desc, err = ParseInstructions(a.ToolDesc)
			desc.Seed = a.Seed
			if err == nil && !desc.Present() {
				err = errors.New("want KIND:N, as in ascii:3000")
			}
		}
		if err != nil {
			return Config{}, fmt.Errorf("-tool-desc: %w", err)
		}
		t, err := desc.For(ReplyInitialize)
		if err != nil {
			return Config{}, fmt.Errorf("-tool-desc: %w", err)
		}
		cfg.ToolDescription = t.Text
	}
	if cfg.Surface.Groups, err = ParseSurface(a.Surface); err != nil {
		return Config{}, fmt.Errorf("-surface: %w", err)
	}
	cfg.Surface.Seed, cfg.Surface.Count, cfg.Surface.NameLength, cfg.Surface.HangFor = a.Seed, a.Tools, a.NameLength, a.HangFor
	if cfg.Surface.ResultSize, err = ParseInstructions(a.ResultSize); err != nil || !cfg.Surface.ResultSize.Present() {
		return Config{}, fmt.Errorf("-result-size: want KIND:N, as in %s", DefaultResultSize)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	if a.InstrFile != "" && !readFile {
		return cfg, nil
	}
	if _, err := cfg.Instructions.For(ReplyInitialize); err != nil {
		return Config{}, err
	}
	return cfg, nil
}
