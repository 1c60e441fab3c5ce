package probe

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/stderr"
)

// discoverID is the id of the modern probe: the one Claude Code 2.1.285 was
// seen to send (seed 000_eb117effbd0f3203), so servers that treat it
// specially treat ours the same.
const discoverID = "server-discover-probe-1"

// maxPages bounds the tools/list pages followed.
const maxPages = 20

// stdioLegacy runs the legacy handshake on a fresh process. It calls
// replied (which must be safe to call twice) with the time from spawn when
// the server's first reply came, or else when the era is over.
func stdioLegacy(ctx context.Context, t Target, o Options, replied func(time.Duration)) (r EraResult) {
	start := time.Now()
	defer func() { replied(time.Since(start)) }() // no reply: the era's whole time
	r = EraResult{Era: Legacy, Method: Legacy.Method()}
	defer func() { r.Elapsed = Millis(time.Since(start)) }()
	p, err := spawn(t)
	if err != nil {
		r.Outcome, r.Detail = OutcomeNoStart, startDetail(t, err)
		return r
	}
	p.onReply = replied
	defer p.stop()
	ectx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	m, err := p.call(ectx, 1, "initialize", o.initializeParams())
	if !r.record(p, m, err, o.Timeout) || r.Outcome != OutcomeOK {
		r.finish(p)
		return r
	}
	h, perr := parseInitialize(m.result)
	if !r.accept(h, perr) {
		return r
	}
	p.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	r.listTwice(func(id int, cursor string) (wireMsg, error) {
		return p.call(ectx, id, "tools/list", o.pageParams(cursor, false))
	}, false)
	r.callTools(o, func(id int, params map[string]any) (wireMsg, []string, error) {
		cctx, cancel := context.WithTimeout(ctx, o.Timeout)
		defer cancel()
		p.takeHeard() // what came before the call is not the call's
		m, err := p.call(cctx, id, "tools/call", params)
		return m, p.takeHeard(), err
	})
	r.finish(p)
	return r
}

// stdioModern runs the modern probe on a fresh process. When the server
// does not answer it with a result, the probe goes on as a probing client
// would on the same process, with initialize, and s records what happened;
// except after silence when legacy (the legacy era, run alongside) says
// initialize got no reply on a fresh process either: a silent server costs
// one timeout, not two. It calls replied as stdioLegacy does.
func stdioModern(ctx context.Context, t Target, o Options, replied func(time.Duration), legacy func() EraResult) (r EraResult, s Survival) {
	start := time.Now()
	defer func() { replied(time.Since(start)) }()
	r = EraResult{Era: Modern, Method: Modern.Method()}
	defer func() { r.Elapsed = Millis(time.Since(start)) }()
	p, err := spawn(t)
	if err != nil {
		r.Outcome, r.Detail = OutcomeNoStart, startDetail(t, err)
		return r, survival(r)
	}
	p.onReply = replied
	defer p.stop()
	pctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	m, err := p.call(pctx, discoverID, "server/discover", o.discoverParams())
	answered := r.record(p, m, err, o.Timeout)
	r.Elapsed = Millis(time.Since(start))
	s = survival(r)
	if !answered {
		if r.Outcome == OutcomeSilent {
			if l := legacy(); l.Outcome == OutcomeSilent {
				s.Detail += "; initialize was not sent after it: on a fresh process it got no reply within " + o.Timeout.String() + " either"
			} else {
				s.Fallback = fallback(ctx, p, o)
			}
		}
		r.finish(p)
		return r, s
	}
	if m.kind == kindError {
		s.Fallback = fallback(ctx, p, o)
		r.finish(p)
		return r, s
	}
	h, perr := parseDiscover(m.result)
	if r.accept(h, perr) {
		r.listTwice(func(id int, cursor string) (wireMsg, error) {
			return p.call(pctx, id, "tools/list", o.pageParams(cursor, true))
		}, true)
		// The calls go to the era that answers initialize; to this one
		// only when that one did not (a modern-only server): each tool
		// is called once.
		if len(o.Calls) > 0 && legacy().Outcome != OutcomeOK {
			r.callTools(o, func(id int, params map[string]any) (wireMsg, []string, error) {
				cctx, cancel := context.WithTimeout(ctx, o.Timeout)
				defer cancel()
				params["_meta"] = o.meta()
				p.takeHeard()
				m, err := p.call(cctx, id, "tools/call", params)
				return m, p.takeHeard(), err
			})
		}
	}
	r.finish(p)
	return r, s
}

// fallback sends initialize on the process that got the probe, as a
// probing client does next, with a fresh timeout.
func fallback(ctx context.Context, p *proc, o Options) *Fallback {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	start := time.Now()
	m, err := p.call(ctx, 1, "initialize", o.initializeParams())
	f := &Fallback{Elapsed: Millis(time.Since(start))}
	var r EraResult
	r.record(p, m, err, o.Timeout)
	f.Outcome, f.Detail = r.Outcome, r.Detail
	if r.Outcome == OutcomeOK {
		if h, err := parseInitialize(m.result); err == nil && h.instructions != nil {
			f.Instructions = h.instructions
		}
	}
	return f
}

// record classifies the reply to the first request (or its absence). It
// reports whether a JSON-RPC reply came.
func (r *EraResult) record(p *proc, m wireMsg, err error, timeout time.Duration) bool {
	switch {
	case errors.Is(err, errExited):
		r.Outcome = OutcomeExit
		r.ExitCode = p.exitCode()
		r.Detail = exitDetail(r.ExitCode, p)
		return false
	case errors.As(err, new(errTooLong)) || errors.Is(err, errTooDeep):
		r.Outcome, r.Detail = OutcomeInvalid, err.Error()
		r.FirstReply = Millis(p.firstReply)
		return false
	case errors.Is(err, errSilent):
		r.Outcome = OutcomeSilent
		r.Detail = fmt.Sprintf("no reply within %v", timeout)
		if n := p.strayCount(); n > 0 {
			r.Outcome = OutcomeInvalid
			r.Detail = fmt.Sprintf("no JSON-RPC reply within %v; stdout had %d line(s) that are not JSON-RPC", timeout, n)
		}
		return false
	case m.kind == kindError:
		r.Outcome, r.Error = OutcomeError, m.err
		r.Detail = fmt.Sprintf("error %d: %s", m.err.Code, clip(m.err.Message, 200))
	default:
		r.Outcome = OutcomeOK
	}
	r.FirstReply = Millis(p.firstReply)
	return true
}

func exitDetail(code *int, p *proc) string {
	var b strings.Builder
	switch {
	case code == nil:
		b.WriteString("closed stdout without replying (still running)")
	default:
		fmt.Fprintf(&b, "exited with status %d without replying", *code)
	}
	if n := p.strayCount(); n > 0 {
		fmt.Fprintf(&b, "; stdout had %d line(s) that are not JSON-RPC", n)
	}
	if s := stderr.Quote(p.stderr.String()); s != "" {
		fmt.Fprintf(&b, "; stderr: %s", s)
	}
	return b.String()
}

func startDetail(t Target, err error) string {
	return fmt.Sprintf("cannot start %q: %v", t.Command, err)
}

// accept takes the handshake of an ok reply; it reports false when the
// result could not be decoded at all.
func (r *EraResult) accept(h handshake, err error) bool {
	if err != nil {
		r.Outcome, r.Detail = OutcomeInvalid, err.Error()
		return false
	}
	r.ProtocolVersion = h.protocolVersion
	r.SupportedVersions = h.supportedVersions
	r.ServerInfo = h.serverInfo
	r.Capabilities, r.ToolsListChanged, r.ResourcesSubscribe = h.capabilities, h.toolsListChanged, h.resourcesSubscribe
	r.Instructions = h.instructions
	r.Problems = append(r.Problems, h.problems...)
	return true
}

// listTools follows tools/list pages with call, from id 2.
func (r *EraResult) listTools(call func(id int, cursor string) (wireMsg, error), modern bool) {
	cursor := ""
	for page := range maxPages {
		m, err := call(2+page, cursor)
		switch {
		case errors.Is(err, errExited):
			r.ToolsError = "the server exited during tools/list"
			return
		case err != nil:
			r.ToolsError = "tools/list: " + err.Error()
			return
		case m.kind == kindError:
			r.ToolsError = fmt.Sprintf("tools/list: error %d: %s", m.err.Code, clip(m.err.Message, 200))
			return
		}
		tools, next, problems, err := parseTools(m.result, modern)
		if err != nil {
			r.ToolsError = err.Error()
			return
		}
		r.Tools = append(r.Tools, tools...)
		if page == 0 {
			r.Problems = append(r.Problems, problems...)
		}
		if next == "" {
			return
		}
		cursor = next
	}
	r.ToolsError = fmt.Sprintf("tools/list: stopped after %d pages", maxPages)
}

// listTwice lists the tools (listTools), then once more on the same
// connection, as a client does on a later turn or a reconnect, and keeps
// the second listing's names in Relisted when they are not the first's in
// the same order. The second listing's ids follow the first's pages; a
// second listing that fails is not measured.
func (r *EraResult) listTwice(call func(id int, cursor string) (wireMsg, error), modern bool) {
	r.listTools(call, modern)
	if r.ToolsError != "" {
		return
	}
	var again EraResult
	again.listTools(func(id int, cursor string) (wireMsg, error) { return call(id+maxPages, cursor) }, modern)
	if again.ToolsError != "" {
		return
	}
	first, second := toolNames(r.Tools), toolNames(again.Tools)
	if !slices.Equal(first, second) {
		r.Relisted = append([]string{}, second...)
	}
}

func toolNames(ts []Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// finish copies what the process left: stray lines and stderr.
func (r *EraResult) finish(p *proc) {
	p.mu.Lock()
	r.Stray = append([]string(nil), p.stray...)
	p.mu.Unlock()
	r.Stderr = p.stderr.String()
}
