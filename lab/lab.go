package lab

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server name the lab reports, and the name clients file its
// instructions under.
const Name = "lab"

// Version is the lab server's version in serverInfo.
const Version = "0.1.0"

// What a lab server does with an unknown method before the handshake.
const (
	UnknownError = "error" // answer -32601, as the specification says
	UnknownCrash = "crash" // exit the process
	UnknownHang  = "hang"  // never answer
)

// FailMethods are the methods Config.Fail may name.
var FailMethods = []string{"tools/list", "initialize", "server/discover"}

// CodeFailed is the error code of a method Config.Fail names: -32603,
// internal error, as a server whose handler failed answers.
const CodeFailed = -32603

// CodeUnsupportedProtocolVersion is the 2026-07-28 error for a version the
// server does not speak; its data names the supported versions.
const CodeUnsupportedProtocolVersion = -32022

// A Config describes one lab server.
type Config struct {
	Instructions Instructions
	// ToolDescription, when set, describes the tool lookup_part instead
	// of its own description.
	ToolDescription string
	Eras            Mode          // ModeLegacy (default), ModeBoth or ModeModern
	InitDelay       time.Duration // hold the initialize reply this long
	DiscoverDelay   time.Duration // hold the server/discover reply this long
	// ReadyAfter holds the reply that completes the handshake (initialize
	// or server/discover) until this long after Started: the delay a
	// client meets from starting the server is then the same however long
	// the process took to start, as long as that was less.
	ReadyAfter time.Duration
	// Started is when the process started (ProcessStart); zero means when
	// New was called.
	Started   time.Time
	OnUnknown string // UnknownError (default), UnknownCrash or UnknownHang
	// Fail lists methods (FailMethods) the lab answers with a JSON-RPC
	// error, CodeFailed, instead of a result: a server whose tools/list,
	// initialize or server/discover breaks, for what a client then does.
	Fail []string
	// ToolMeta, when set, is the tool lookup_part's _meta.
	ToolMeta map[string]any
	// ToolOrder is the order of the tools in tools/list: OrderName (the
	// default) or OrderRotate.
	ToolOrder string
	Log       *MessageLog // nil logs nothing
	// Surface adds the tools, prompts and resources of its groups.
	Surface SurfaceConfig
	// Exit ends the process for OnUnknown "crash"; nil means os.Exit.
	Exit func(code int)
	// Stderr receives the lab's own diagnostics; nil means os.Stderr.
	Stderr io.Writer
	// SessionIdle closes an HTTP session that gets no request this long,
	// freeing what it holds; 0 means DefaultSessionIdle.
	SessionIdle time.Duration
	// DiscoverTTL and CacheScope, when set, are the DiscoverResult's
	// ttlMs (in whole milliseconds) and cacheScope ("public" or
	// "private"); unset, the SDK's (0 and public).
	DiscoverTTL time.Duration
	CacheScope  string
	// DropSession, when set, has the HTTP handler answer 404 to the
	// request after this many in one session, and to every later one in
	// it: a server that lost the session mid-run. Sessions are the
	// legacy era's (ModeLegacy); the others serve HTTP without them.
	DropSession int
	// DropAfterCalls, when set, has the HTTP handler answer 404 to every
	// request after the lab's DropAfterCalls-th tools/call (answered) in
	// that call's session: a server that lost the session between two
	// calls, as between two of a conversation's turns, whatever else the
	// client sends in it. A session the client opens then lives on.
	// Legacy era only, as DropSession.
	DropAfterCalls int
	// SessionTexts gives each initialize after the lab's first a text of
	// its own (Instructions.ForSession), so that a client that opens a
	// new session shows whether it takes the new text. Generated texts
	// only.
	SessionTexts bool
	// BodyTimeout bounds the reading of an HTTP request body, so that a
	// client that sends it slowly cannot hold a connection; 0 means
	// DefaultBodyTimeout.
	BodyTimeout time.Duration
}

// Defaults for Config's HTTP limits.
const (
	DefaultSessionIdle = 30 * time.Minute
	DefaultBodyTimeout = 30 * time.Second
)

// A Lab is a configured lab server, ready to serve stdio or HTTP.
type Lab struct {
	cfg      Config
	log      *MessageLog
	init     Text // the initialize text
	discover Text // the server/discover text
	server   *mcp.Server
	tools    *toolsCache // nil: tools/list as the SDK marshals it
	// surface holds the surface's tools by name.
	surface map[string]SurfaceTool
	// toolsAdded is closed once the tools are added to server (addTools
	// runs beside the start of serving: see New).
	toolsAdded chan struct{}
	// tasks are those made of calls (taskCall), served by tasks/get.
	tasks labTasks
	// listings counts the tools/list replies, for OrderRotate.
	listings atomic.Int64
	// inits counts the initialize replies, for SessionTexts.
	inits atomic.Int64
	// leveled holds the sessions whose client set a log level
	// (logging/setLevel), or for which the lab set its own (logLevel).
	leveled sync.Map
}

// Validate reports what is wrong with cfg, without building anything.
func (cfg Config) Validate() error {
	if cfg.Eras != "" && !slices.Contains([]Mode{ModeLegacy, ModeBoth, ModeModern}, cfg.Eras) {
		return fmt.Errorf("unknown eras %q (want legacy, modern or legacy,modern)", cfg.Eras)
	}
	if cfg.OnUnknown != "" && !slices.Contains([]string{UnknownError, UnknownCrash, UnknownHang}, cfg.OnUnknown) {
		return fmt.Errorf("unknown -on-unknown %q (want error, crash or hang)", cfg.OnUnknown)
	}
	for _, m := range cfg.Fail {
		switch {
		case !slices.Contains(FailMethods, m):
			return fmt.Errorf("-fail %q: want %s", m, strings.Join(FailMethods, ", "))
		case m == "server/discover" && (cfg.Eras == "" || cfg.Eras == ModeLegacy):
			return fmt.Errorf("-fail server/discover needs -eras modern or legacy,modern: a legacy lab answers it -32601 already")
		case m == "initialize" && cfg.Eras == ModeModern:
			return fmt.Errorf("-fail initialize: a modern lab refuses initialize already (-32022)")
		}
	}
	if cfg.ToolOrder != "" && !slices.Contains(toolOrders, cfg.ToolOrder) {
		return fmt.Errorf("-tool-order %q: want %s", cfg.ToolOrder, strings.Join(toolOrders, " or "))
	}
	if cfg.InitDelay < 0 || cfg.DiscoverDelay < 0 || cfg.ReadyAfter < 0 || cfg.SessionIdle < 0 || cfg.BodyTimeout < 0 || cfg.DiscoverTTL < 0 || cfg.Surface.HangFor < 0 {
		return fmt.Errorf("delays and timeouts must not be negative")
	}
	if cfg.DiscoverTTL%time.Millisecond != 0 {
		return fmt.Errorf("-discover-ttl %v: ttlMs counts whole milliseconds", cfg.DiscoverTTL)
	}
	if cfg.CacheScope != "" && cfg.CacheScope != "public" && cfg.CacheScope != "private" {
		return fmt.Errorf("-cache-scope %q: want public or private", cfg.CacheScope)
	}
	if (cfg.DiscoverTTL != 0 || cfg.CacheScope != "") && (cfg.Eras == "" || cfg.Eras == ModeLegacy) {
		return fmt.Errorf("-discover-ttl and -cache-scope set the DiscoverResult: they need -eras modern or legacy,modern")
	}
	switch {
	case cfg.DropSession < 0:
		return fmt.Errorf("-drop-session %d: want 1 or more", cfg.DropSession)
	case cfg.DropAfterCalls < 0:
		return fmt.Errorf("-drop-after-calls %d: want 1 or more", cfg.DropAfterCalls)
	case cfg.DropSession > 0 && cfg.DropAfterCalls > 0:
		return fmt.Errorf("-drop-session and -drop-after-calls are exclusive: a session is dropped after a count of requests or of calls")
	case cfg.SessionTexts && cfg.Instructions.Language == "":
		return fmt.Errorf("-session-texts needs a generated text (-instr KIND:N): a file's or no text cannot tell sessions apart")
	case (cfg.DropSession > 0 || cfg.DropAfterCalls > 0) && cfg.Eras != "" && cfg.Eras != ModeLegacy:
		return fmt.Errorf("-drop-session and -drop-after-calls need -eras legacy: labs that speak the modern era serve HTTP without sessions")
	}
	return cfg.Surface.checkCounts()
}

// New checks cfg and builds the server. It does no I/O.
func New(cfg Config) (*Lab, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Eras == "" {
		cfg.Eras = ModeLegacy
	}
	if cfg.OnUnknown == "" {
		cfg.OnUnknown = UnknownError
	}
	if cfg.Started.IsZero() {
		cfg.Started = time.Now()
	}
	if cfg.Exit == nil {
		cfg.Exit = os.Exit
	}
	if cfg.Stderr == nil {
		cfg.Stderr = os.Stderr
	}
	if cfg.SessionIdle == 0 {
		cfg.SessionIdle = DefaultSessionIdle
	}
	if cfg.BodyTimeout == 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	l := &Lab{cfg: cfg, log: cfg.Log}
	var err error
	if l.init, err = cfg.Instructions.For(ReplyInitialize); err != nil {
		return nil, err
	}
	if l.discover, err = cfg.Instructions.For(ReplyDiscover); err != nil {
		return nil, err
	}
	surface, err := cfg.Surface.Tools()
	if err != nil {
		return nil, fmt.Errorf("-surface: %w", err)
	}
	l.surface = make(map[string]SurfaceTool, len(surface))
	members := map[string]map[string]json.RawMessage{}
	for _, t := range surface {
		l.surface[t.Tool.Name] = t
		if t.Members != nil {
			members[t.Tool.Name] = t.Members
		}
	}
	l.tools = newToolsCache(members)
	opts := &mcp.ServerOptions{
		SupportedProtocolVersions: versionsFor(cfg.Eras),
		Capabilities:              l.capabilities(),
		SetCacheable:              cacheable(cfg.DiscoverTTL, cfg.CacheScope),
	}
	if cfg.Surface.Has(SurfaceProtocol) {
		// A client may subscribe to the group's resource, which one of its
		// tools changes (resources/updated): every subscription is taken.
		opts.SubscribeHandler = func(context.Context, *mcp.SubscribeRequest) error { return nil }
		opts.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
	}
	l.server = mcp.NewServer(&mcp.Implementation{Name: Name, Version: Version}, opts)
	// Adding the tools infers and resolves their JSON Schemas by reflection:
	// most of the time New takes, and, in a fresh process, a few ms of
	// CPU that the initialize reply does not need (the tools capability is
	// declared above; ListChanged is false, so adding them notifies no
	// session). They are added on a goroutine of their own, beside the
	// start of serving, and whatever needs them waits (awaitTools).
	l.toolsAdded = make(chan struct{})
	add := func() {
		defer close(l.toolsAdded)
		addLabTools(l.server, cfg.ToolDescription, cfg.ToolMeta)
		addSurface(l.server, surface, cfg.Surface)
	}
	if cfg.Surface.Has(SurfaceProtocol) {
		add() // ListChanged is true: added later, they would notify a session of a change that is none
	} else {
		go add()
	}
	l.server.AddReceivingMiddleware(l.middleware)
	return l, nil
}

// cacheable sets the DiscoverResult's ttlMs and cacheScope, when either
// is set; nil leaves every result the SDK's.
func cacheable(ttl time.Duration, scope string) func(context.Context, mcp.Request, *mcp.Cacheable) {
	if ttl == 0 && scope == "" {
		return nil
	}
	return func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
		if _, ok := req.GetParams().(*mcp.DiscoverParams); !ok {
			return
		}
		c.TTLMs = int(ttl.Milliseconds())
		if scope != "" {
			c.CacheScope = scope
		}
	}
}

// addLabTools is addTools; TestToolsAwaited holds it back.
var addLabTools = addTools

// awaitTools returns once the lab's tools are added to its SDK server.
func (l *Lab) awaitTools() { <-l.toolsAdded }

// Texts returns the initialize and server/discover texts.
func (l *Lab) Texts() (initialize, discover Text) { return l.init, l.discover }

// Log returns the message log, nil if there is none.
func (l *Lab) Log() *MessageLog { return l.log }

// Server returns the SDK server, for in-process use, with its tools.
func (l *Lab) Server() *mcp.Server {
	l.awaitTools()
	return l.server
}

func versionsFor(mode Mode) []string {
	all := mcp.SupportedProtocolVersions()
	switch mode {
	case ModeModern:
		return []string{ModernVersion}
	case ModeLegacy:
		return slices.DeleteFunc(all, func(v string) bool { return v >= ModernVersion })
	}
	return all
}

// middleware sets the instructions per era, holds replies, and serves
// tools/list with schemas marshalled once.
func (l *Lab) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if !l.servesMethod(method) {
			// The lab declares only the tools capability; the SDK would
			// answer prompts/list and resources/list with empty lists all
			// the same (conformance: server-stateless, prompts declared in
			// discover).
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found: " + method + " (the lab has tools only)"}
		}
		if slices.Contains(l.cfg.Fail, method) {
			return nil, &jsonrpc.Error{Code: CodeFailed, Message: "lab: " + method + " fails on purpose (-fail " + method + ")"}
		}
		if strings.HasPrefix(method, "prompts/") || strings.HasPrefix(method, "resources/") {
			l.awaitTools() // added with the tools (SurfacePrompts)
		}
		switch method {
		case "initialize":
			if l.cfg.Eras == ModeModern {
				return nil, l.refuseInitialize(req)
			}
			if err := l.hold(ctx, l.cfg.InitDelay); err != nil {
				return nil, err
			}
			res, err := next(ctx, method, req)
			if err != nil && l.cfg.Eras == ModeBoth {
				// The SDK refuses initialize once server/discover has set up
				// the session; a dual server answers it all the same, so
				// that a client that sends both shows which text it keeps.
				res, err = l.lateInitialize(req)
			}
			if r, ok := res.(*mcp.InitializeResult); ok && err == nil {
				r.Instructions = l.init.Text
				if l.cfg.SessionTexts {
					t, err := l.cfg.Instructions.ForSession(ReplyInitialize, int(l.inits.Add(1)))
					if err != nil {
						return nil, err
					}
					r.Instructions = t.Text
				}
				if l.cfg.Surface.Has(SurfaceProtocol) {
					res = tasksDeclared{InitializeResult: r, extension: initDeclaresTasks(req)}
				}
			}
			return res, err
		case "server/discover":
			if l.cfg.Eras == ModeLegacy {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "method not found: server/discover (this server is legacy)"}
			}
			if err := l.hold(ctx, l.cfg.DiscoverDelay); err != nil {
				return nil, err
			}
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.DiscoverResult); ok && err == nil {
				r.Instructions = l.discover.Text
				if l.cfg.Surface.Has(SurfaceProtocol) && metaDeclaresTasks(req.GetParams().GetMeta()) {
					withTasksExtension(r)
				}
			}
			return res, err
		case "logging/setLevel":
			l.leveled.Store(req.GetSession(), true)
		case "tools/call":
			l.awaitTools()
			if res, ok, err := l.rawCall(ctx, req); ok {
				return res, err
			}
			if res, ok := l.taskCall(req); ok {
				return res, nil
			}
			l.logLevel(ctx, next, req)
		case "tools/list":
			l.awaitTools()
			res, err := next(ctx, method, req)
			r, ok := res.(*mcp.ListToolsResult)
			if ok && err == nil && l.cfg.ToolOrder == OrderRotate {
				r.Tools = rotate(r.Tools, int(l.listings.Add(1)))
			}
			if ok && err == nil && l.tools != nil {
				return l.tools.list(r), nil
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// DefaultLogLevel is the log level the lab logs at in a session whose
// client set none (logging/setLevel) before it called the tool that logs:
// the specification lets a server choose its own then, and the SDK sends
// no log message until a level is set.
const DefaultLogLevel = "info"

// logLevel sets DefaultLogLevel for req's session, through the SDK's own
// logging/setLevel, when req calls the tool of SurfaceProtocol that logs,
// in an initialized session whose client set no level. The 2026-07-28
// protocol takes the level from each request's _meta instead: nothing to
// set.
func (l *Lab) logLevel(ctx context.Context, next mcp.MethodHandler, req mcp.Request) {
	p, _ := req.GetParams().(*mcp.CallToolParamsRaw)
	ss, _ := req.GetSession().(*mcp.ServerSession)
	if p == nil || p.Name != protocolLog || ss == nil || ss.InitializeParams() == nil {
		return
	}
	if _, set := l.leveled.LoadOrStore(ss, true); set {
		return
	}
	//lint:ignore SA1019 logging is deprecated in 2026-07-28; servers still log in the 2025 era
	next(ctx, "logging/setLevel", &mcp.ServerRequest[*mcp.SetLoggingLevelParams]{Session: ss, Params: &mcp.SetLoggingLevelParams{Level: DefaultLogLevel}})
}

// lateInitialize answers an initialize that follows server/discover on the
// same connection.
func (l *Lab) lateInitialize(req mcp.Request) (mcp.Result, error) {
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss.InitializeParams() == nil {
		return nil, fmt.Errorf("initialize refused")
	}
	version := "2025-11-25"
	if p, ok := req.GetParams().(*mcp.InitializeParams); ok && p != nil &&
		p.ProtocolVersion < ModernVersion && slices.Contains(versionsFor(l.cfg.Eras), p.ProtocolVersion) {
		version = p.ProtocolVersion
	}
	return &mcp.InitializeResult{
		ProtocolVersion: version,
		Capabilities:    l.capabilities(),
		ServerInfo:      &mcp.Implementation{Name: Name, Version: Version},
	}, nil
}

func (l *Lab) refuseInitialize(req mcp.Request) error {
	requested := ""
	if p, ok := req.GetParams().(*mcp.InitializeParams); ok && p != nil {
		requested = p.ProtocolVersion
	}
	data, _ := json.Marshal(map[string]any{"supported": []string{ModernVersion}, "requested": requested})
	return &jsonrpc.Error{
		Code:    CodeUnsupportedProtocolVersion,
		Message: "unsupported protocol version: this server speaks " + ModernVersion + " only, without initialize",
		Data:    data,
	}
}

// hold holds a handshake reply d, then until ReadyAfter past the
// process's start.
func (l *Lab) hold(ctx context.Context, d time.Duration) error {
	if err := sleep(ctx, d); err != nil {
		return err
	}
	if l.cfg.ReadyAfter <= 0 {
		return nil
	}
	return sleep(ctx, time.Until(l.cfg.Started.Add(l.cfg.ReadyAfter)))
}

// maxHold is the longest a handshake reply may be held.
func (c Config) maxHold() time.Duration {
	return max(c.InitDelay, c.DiscoverDelay, c.ReadyAfter)
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// servesMethod reports whether the lab serves method: it has tools, and no
// completions; prompts and resources with SurfacePrompts only, but the
// resources of SurfaceProtocol (its resource a client may subscribe to).
func (l *Lab) servesMethod(method string) bool {
	switch {
	case strings.HasPrefix(method, "prompts/"):
		return l.cfg.Surface.Has(SurfacePrompts)
	case strings.HasPrefix(method, "resources/"):
		return l.cfg.Surface.Has(SurfacePrompts) || l.cfg.Surface.Has(SurfaceProtocol)
	}
	return method != "completion/complete"
}

// capabilities are the lab's: tools, prompts and resources with
// SurfacePrompts, and tools/list_changed, logging and resources with
// subscriptions with SurfaceProtocol.
func (l *Lab) capabilities() *mcp.ServerCapabilities {
	c := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
	if l.cfg.Surface.Has(SurfacePrompts) {
		c.Prompts, c.Resources = &mcp.PromptCapabilities{}, &mcp.ResourceCapabilities{}
	}
	if l.cfg.Surface.Has(SurfaceProtocol) {
		//lint:ignore SA1019 logging is deprecated in 2026-07-28; servers still log in the 2025 era
		c.Tools.ListChanged, c.Logging = true, &mcp.LoggingCapabilities{}
		if c.Resources == nil {
			c.Resources = &mcp.ResourceCapabilities{}
		}
		c.Resources.Subscribe = true
	}
	return c
}

// knownMethods are the requests the SDK (v1.8.0) serves.
var knownMethods = []string{
	"initialize", "ping", "server/discover", "subscriptions/listen",
	"tools/list", "tools/call", "prompts/list", "prompts/get",
	"resources/list", "resources/templates/list", "resources/read",
	"resources/subscribe", "resources/unsubscribe",
	"logging/setLevel", "completion/complete",
}

// onUnknown says what the lab does itself with m, or "" to pass it to the
// SDK: requests for a method the server does not know before the handshake,
// and server/discover to a legacy server at any time (the SDK would answer
// it with -32022, as a dual server that lacks the version; a legacy server
// does not know the method at all).
func (l *Lab) onUnknown(m message, handshaken bool) string {
	if m.kind != KindRequest || m.method == "tasks/get" && l.servesTasks() {
		return ""
	}
	legacyProbe := m.method == "server/discover" && l.cfg.Eras == ModeLegacy
	if !legacyProbe && (handshaken || slices.Contains(knownMethods, m.method)) {
		return ""
	}
	switch {
	case handshaken:
		return "unknown method: answered -32601"
	case l.cfg.OnUnknown == UnknownCrash:
		return "unknown method before the handshake: crashing (-on-unknown crash)"
	case l.cfg.OnUnknown == UnknownHang:
		return "unknown method before the handshake: never answered (-on-unknown hang)"
	}
	return "unknown method before the handshake: answered -32601"
}

// logReceived completes e, the log entry of the received message m (raw as
// read), logs it, and returns what onUnknown decided for m.
func (l *Lab) logReceived(e Entry, m message, raw []byte, handshaken bool) string {
	e, act := l.receivedEntry(e, m, raw, handshaken)
	l.log.Log(e)
	return act
}

// receivedEntry completes e, the log entry of the received message m, and
// returns it with what onUnknown decided for m.
func (l *Lab) receivedEntry(e Entry, m message, raw []byte, handshaken bool) (Entry, string) {
	e.Dir, e.Kind, e.Method, e.ID, e.Meta, e.Note = Recv, m.kind, cmp.Or(m.method, e.Method), m.id, m.meta, m.note
	if m.kind == KindInvalid || m.kind == KindEmpty {
		e.Raw, e.Unread = string(raw), m.unread
	}
	keepBody(&e, raw)
	act := l.onUnknown(m, handshaken)
	if act != "" {
		e.Note = act
	}
	return e, act
}

// actOnUnknown carries out what onUnknown decided for m, answering through
// reply; it reports whether m was answered.
func (l *Lab) actOnUnknown(m message, handshaken bool, reply func(code int, msg string)) bool {
	switch {
	case handshaken:
	case l.cfg.OnUnknown == UnknownCrash:
		fmt.Fprintf(l.cfg.Stderr, "lab: crashing on unknown method %q (-on-unknown crash)\n", m.method)
		if err := l.log.Close(); err != nil {
			fmt.Fprintf(l.cfg.Stderr, "lab: %v\n", err)
		}
		l.cfg.Exit(1)
		return false
	case l.cfg.OnUnknown == UnknownHang:
		return false
	}
	reply(jsonrpc.CodeMethodNotFound, "method not found: "+m.method)
	return true
}
