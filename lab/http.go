package lab

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxBody bounds an HTTP request body, as the SDK's default does.
const maxBody = mcp.DefaultMaxRequestBodyBytes

// Handler serves the lab over Streamable HTTP. Mount it at /mcp. Legacy
// servers are stateful (sessions, Mcp-Session-Id); dual and modern servers
// are stateless, since the SDK serves 2026-07-28 over HTTP only that way;
// a session idle for Config.SessionIdle is closed. A request body must
// arrive within Config.BodyTimeout.
// Requests whose Origin is not a loopback origin get 403, and every message
// in both directions is logged.
func (l *Lab) Handler() http.Handler {
	// The SDK's handler looks tools up before the middleware runs (the
	// Mcp-Param headers of tools/call).
	l.awaitTools()
	inner := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return l.server },
		&mcp.StreamableHTTPOptions{Stateless: l.cfg.Eras != ModeLegacy, SessionTimeout: l.cfg.SessionIdle})
	return &httpHandler{lab: l, inner: inner, drops: dropper{n: l.cfg.DropSession, calls: l.cfg.DropAfterCalls}}
}

type httpHandler struct {
	lab      *Lab
	inner    http.Handler
	inFlight idSet
	drops    dropper
}

// An idSet holds the ids of the requests in flight per session, so that a
// second request with the id of one in flight is refused rather than
// confused with it (the SDK routes responses by id within a session).
type idSet struct {
	mu  sync.Mutex
	ids map[string]bool // session + "\x00" + id
}

func (s *idSet) add(session string, id json.RawMessage) bool {
	if session == "" {
		return true // no session: each request stands alone
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := session + "\x00" + string(id)
	if s.ids[k] {
		return false
	}
	if s.ids == nil {
		s.ids = make(map[string]bool)
	}
	s.ids[k] = true
	return true
}

func (s *idSet) remove(session string, id json.RawMessage) {
	if session == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.ids, session+"\x00"+string(id))
}

// loopbackOrigin reports whether an Origin header is absent or names a
// loopback host, the only origins a local server should accept.
func loopbackOrigin(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// LoopbackHost reports whether a request's Host names a loopback host
// (localhost, 127.0.0.0/8, ::1), with or without a port: a request whose
// Host names anything else came by another name (DNS rebinding) and is
// refused.
func LoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopbackOrigin(r.Header.Get("Origin")) {
		http.Error(w, "forbidden: Origin "+r.Header.Get("Origin")+" is not a loopback origin", http.StatusForbidden)
		return
	}
	session := r.Header.Get("Mcp-Session-Id")
	if e, ok := exchangeEntry(r, session); ok {
		h.lab.log.Log(e)
	}
	if r.Method != http.MethodPost && h.drops.drop(session, "") {
		h.drops.refuse(w, h.lab.log, session)
		return
	}
	var track tracker
	if r.Method == http.MethodPost {
		rc := http.NewResponseController(w)
		rc.SetReadDeadline(time.Now().Add(h.lab.cfg.BodyTimeout)) // not every server supports it
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		r.Body.Close()
		rc.SetReadDeadline(time.Time{})
		if err != nil {
			http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		m := classify(body)
		dropped := h.drops.drop(session, m.method)
		switch {
		case m.kind == KindEmpty:
			m = invalid(-32700, "empty request body", nil)
		case m.kind == KindRequest && !sdkExactID(m.id):
			// The SDK reads the body itself and would answer with another
			// id; over stdio the lab answers such ids exactly.
			m = invalid(-32600, "this server answers over HTTP only ids it can echo exactly: integers within ±2^53 and strings without lone surrogates", m.id)
		case m.kind == KindRequest && !h.inFlight.add(session, m.id):
			m = invalid(-32600, "a request with this id is in flight in this session", m.id)
		}
		if m.kind == KindRequest {
			defer h.inFlight.remove(session, m.id)
		}
		act := h.lab.logReceived(Entry{Transport: "http", Session: session, Bytes: len(body)}, m, body, session != "")
		track.received(m)
		if m.kind == KindInvalid {
			// As on stdio: -32700 or -32600, never a message the SDK
			// would read differently (it would run a batch, or decode
			// invalid UTF-8 as U+FFFD), with 400 as Streamable HTTP asks.
			data := errorResponse(m.replyID, m.code, m.note)
			h.logSent(&track, session, data)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(data)
			return
		}
		if dropped { // logged as received, then refused
			h.drops.refuse(w, h.lab.log, session)
			return
		}
		if act != "" {
			answered := h.lab.actOnUnknown(m, session != "", func(code int, msg string) {
				data := errorResponse(m.id, code, msg)
				h.logSent(&track, session, data)
				w.Header().Set("Content-Type", "application/json")
				status := http.StatusOK
				if h.lab.cfg.Eras != ModeLegacy {
					status = http.StatusNotFound // 2026-07-28: unknown methods are 404 with -32601
				}
				w.WriteHeader(status)
				w.Write(data)
			})
			if !answered { // -on-unknown hang: hold the request until the client gives up
				<-r.Context().Done()
			}
			return
		}
		if m.kind == KindRequest && m.method == "tasks/get" && h.lab.servesTasks() {
			h.answerTask(w, &track, session, m) // the SDK knows no such method
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	sessionOf := func() string {
		if session != "" {
			return session
		}
		return w.Header().Get("Mcp-Session-Id")
	}
	tw := &tapWriter{ResponseWriter: w,
		sent: func(data []byte) { h.logSent(&track, sessionOf(), data) },
		long: func(size int, start []byte) { h.lab.log.Log(longEntry(sessionOf(), size, start)) },
	}
	h.inner.ServeHTTP(tw, r)
	tw.finish()
	if tw.status == http.StatusNotFound && session != "" {
		h.lab.log.Log(sessionLost(session, "the SDK answered 404: the session is not known to the server (ended, or idle past its timeout)"))
	}
}

// answerTask answers the tasks/get m as stdio does (taskAnswer), in a
// JSON body.
func (h *httpHandler) answerTask(w http.ResponseWriter, track *tracker, session string, m message) {
	data := h.lab.taskAnswer(m)
	h.logSent(track, session, data)
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

func (h *httpHandler) logSent(track *tracker, session string, data []byte) {
	e := track.sentEntry(data)
	e.Transport, e.Session = "http", session
	h.lab.log.Log(e)
}

// WriteTimeout is how long each write of an HTTP answer may take: a
// client that stops reading loses its connection after it, instead of
// holding the answer's memory (a 4 MB answer each) for as long as it
// keeps the connection open.
const WriteTimeout = 10 * time.Second

// WithWriteTimeout gives every write (and flush) of h's answers d to
// complete, from when it starts: an answer that a client reads, however
// slowly, and a stream that is idle between events, go on; one the client
// stopped reading ends. A server-wide http.Server.WriteTimeout would end
// every stream after d.
func WithWriteTimeout(h http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(&deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: d}, r)
	})
}

type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) Write(b []byte) (int, error) {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	return w.ResponseWriter.Write(b)
}

func (w *deadlineWriter) Flush() {
	w.rc.SetWriteDeadline(time.Now().Add(w.d))
	w.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
