package probe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpLegacy runs the legacy handshake over Streamable HTTP with the SDK's
// client, forced to initialize by asking for 2025-11-25. handshook is
// called when the handshake has ended, answered or not.
func httpLegacy(ctx context.Context, t Target, o Options, handshook func()) (r EraResult) {
	r = EraResult{Era: Legacy, Method: Legacy.Method()}
	start := time.Now()
	defer func() { r.Elapsed = Millis(time.Since(start)) }()
	cs, rec, hr, err := httpConnect(ctx, t, o, LegacyVersion)
	handshook()
	defer hr.close(cs)
	if !r.httpRecord(rec, hr, "initialize", err, o.Timeout) || r.Outcome != OutcomeOK {
		return r
	}
	m, _ := rec.lastReply("initialize")
	h, perr := parseInitialize(m.result)
	if r.accept(h, perr) && cs != nil {
		r.httpTools(ctx, cs, rec, o, false)
		r.callTools(o, httpCall(ctx, cs, rec, o))
	}
	return r
}

// httpCall calls a tool with the SDK's client and returns the reply the
// recording kept, as the server wrote it.
func httpCall(ctx context.Context, cs *mcp.ClientSession, rec *recording, o Options) func(int, map[string]any) (wireMsg, []string, error) {
	return func(_ int, params map[string]any) (wireMsg, []string, error) {
		cctx, cancel := context.WithTimeout(ctx, o.Timeout)
		defer cancel()
		_, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: params["name"].(string), Arguments: params["arguments"]})
		if m, ok := rec.lastReply("tools/call"); ok {
			return m, nil, nil // what the server sent meanwhile over HTTP: not measured
		}
		if cctx.Err() != nil {
			return wireMsg{}, nil, errSilent
		}
		if err == nil {
			err = errors.New("no reply recorded")
		}
		return wireMsg{}, nil, err
	}
}

// httpModern runs the modern probe over Streamable HTTP: the SDK's client
// sends server/discover, and its fallback to initialize is refused. It
// calls the tools only when legacy, which waits for the legacy era, says
// that era got no initialize result (a modern-only server).
func httpModern(ctx context.Context, t Target, o Options, legacy func() EraResult) (r EraResult, s Survival) {
	r = EraResult{Era: Modern, Method: Modern.Method()}
	start := time.Now()
	defer func() { r.Elapsed = Millis(time.Since(start)) }()
	cs, rec, hr, err := httpConnect(ctx, t, o, ModernVersion)
	defer hr.close(cs)
	answered := r.httpRecord(rec, hr, "server/discover", err, o.Timeout)
	r.Elapsed = Millis(time.Since(start))
	s = survival(r)
	if !answered || r.Outcome != OutcomeOK {
		return r, s
	}
	m, _ := rec.lastReply("server/discover")
	h, perr := parseDiscover(m.result)
	if r.accept(h, perr) && cs != nil {
		r.httpTools(ctx, cs, rec, o, true)
		if len(o.Calls) > 0 && legacy().Outcome != OutcomeOK {
			r.callTools(o, httpCall(ctx, cs, rec, o))
		}
	}
	return r, s
}

// httpConnect connects the SDK's client through the recording wrappers.
func httpConnect(ctx context.Context, t Target, o Options, version string) (*mcp.ClientSession, *recording, *httpRecorder, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	life, end := context.WithCancel(context.Background())
	hr := &httpRecorder{base: http.DefaultTransport.(*http.Transport).Clone(), headers: t.Headers, life: life, end: end}
	rec := &recording{start: start}
	tr := &recTransport{
		inner: &mcp.StreamableClientTransport{
			Endpoint:             t.URL,
			HTTPClient:           &http.Client{Transport: hr, CheckRedirect: noRedirects},
			MaxRetries:           -1,
			DisableStandaloneSSE: true,
			// Set, not left 0: the SDK's streamable client passes 0 on as
			// no limit at all, not as its documented default.
			MaxEventSize: MaxAnswer,
		},
		rec:              rec,
		refuseInitialize: version == ModernVersion,
	}
	c := mcp.NewClient(&mcp.Implementation{Name: o.ClientName, Version: o.ClientVersion},
		&mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	return cs, rec, hr, err
}

// close ends the session, every request still open, and the connections.
func (h *httpRecorder) close(cs *mcp.ClientSession) {
	if cs != nil {
		cs.Close()
	}
	h.end()
	h.base.CloseIdleConnections()
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// httpRecord classifies the reply to the era's first request from what was
// recorded. It reports whether a JSON-RPC reply came.
func (r *EraResult) httpRecord(rec *recording, hr *httpRecorder, method string, err error, timeout time.Duration) bool {
	if m, ok := rec.lastReply(method); ok {
		r.FirstReply = Millis(rec.firstReply())
		if m.kind == kindError {
			r.Outcome, r.Error = OutcomeError, m.err
			r.Detail = fmt.Sprintf("error %d: %s", m.err.Code, clip(m.err.Message, 200))
		} else {
			r.Outcome = OutcomeOK
		}
		return true
	}
	// No JSON-RPC reply: say what HTTP showed instead, timed from the
	// first request to the response that showed it.
	x, seen := hr.last()
	if seen && x.err == nil {
		r.FirstReply = Millis(x.at.Sub(rec.start))
	}
	switch {
	case seen && x.err != nil && errors.Is(x.err, context.DeadlineExceeded):
		r.Outcome, r.Detail = OutcomeSilent, fmt.Sprintf("no reply within %v", timeout)
	case seen && errors.Is(x.err, errAnswerTooLong):
		r.Outcome, r.Detail = OutcomeInvalid, x.err.Error()
	case seen && x.err != nil && isDial(x.err):
		r.Outcome, r.Detail = OutcomeNoStart, fmt.Sprintf("cannot reach %s: %v", x.url, rootCause(x.err))
	case seen && x.err != nil:
		// Reached, then gone: the server closed the connection or died.
		r.Outcome, r.Detail = OutcomeExit, fmt.Sprintf("the connection closed without a reply: %v", rootCause(x.err))
	case seen && x.status >= 300 && x.status < 400:
		r.Outcome = OutcomeInvalid
		r.Detail = fmt.Sprintf("HTTP %d redirect to %q; MCP clients may not follow it: configure the final URL", x.status, x.location)
	case seen && isHTML(x.contentType, x.body):
		r.Outcome = OutcomeInvalid
		r.Detail = fmt.Sprintf("HTTP %d with an HTML page (%s), not JSON-RPC: is this the MCP endpoint?", x.status, x.contentType)
	case seen && x.status >= 400:
		r.Outcome = OutcomeInvalid
		if m := parseMessage(x.body); m.kind == kindError {
			r.Outcome, r.Error = OutcomeError, m.err
			r.Detail = fmt.Sprintf("HTTP %d, error %d: %s", x.status, m.err.Code, clip(m.err.Message, 200))
			return true
		}
		r.Detail = httpFailure(x.status, x.contentType, x.body)
	case errors.Is(err, context.DeadlineExceeded):
		r.Outcome, r.Detail = OutcomeSilent, fmt.Sprintf("no reply within %v", timeout)
	default:
		r.Outcome = OutcomeInvalid
		r.Detail = "no JSON-RPC reply"
		if err != nil {
			r.Detail += ": " + clip(err.Error(), 300)
		}
	}
	return false
}

// httpTools lists the tools with the SDK, page by page, and decodes each
// page as the server wrote it.
func (r *EraResult) httpTools(ctx context.Context, cs *mcp.ClientSession, rec *recording, o Options, modern bool) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	r.listTwice(func(_ int, cursor string) (wireMsg, error) {
		_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		if m, ok := rec.lastReply("tools/list"); ok {
			return m, nil
		}
		if err == nil {
			err = errors.New("no reply recorded")
		}
		return wireMsg{}, err
	}, modern)
}

// isDial reports whether err happened before a connection was made.
func isDial(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// httpFailure describes an HTTP error status whose body is not a JSON-RPC
// error, naming an empty content type or body rather than printing
// nothing ("HTTP 404 : ").
func httpFailure(status int, contentType string, body []byte) string {
	if contentType == "" {
		contentType = "no content type"
	}
	text := strings.TrimSpace(string(body))
	if text == "" {
		return fmt.Sprintf("HTTP %d (%s), empty body", status, contentType)
	}
	return fmt.Sprintf("HTTP %d (%s): %s", status, contentType, clip(text, 160))
}
