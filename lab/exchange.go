package lab

import (
	"fmt"
	"net/http"
	"sync"
)

// KindHTTP is a log entry about an HTTP exchange that carries no JSON-RPC
// message: a GET (the client opens a stream for the server's messages;
// LastEventID is set when it resumes one), a DELETE (it ends its session),
// or an answer without a message (Status 404: the session is not, or no
// longer, known to the server). The lab and the HTTP proxy write them, so
// that sessions and resumption are read from the log as messages are.
const KindHTTP = "http"

// maxEventID bounds the Last-Event-ID the log keeps: a client's header.
const maxEventID = 256

// exchangeEntry is the entry of a GET or DELETE request in session, which
// carries no message; ok is false for other methods.
func exchangeEntry(r *http.Request, session string) (Entry, bool) {
	if r.Method != http.MethodGet && r.Method != http.MethodDelete {
		return Entry{}, false
	}
	e := Entry{Dir: Recv, Transport: "http", Session: session, Kind: KindHTTP, HTTPMethod: r.Method}
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		e.LastEventID = id[:min(len(id), maxEventID)]
	}
	return e, true
}

// sessionLost is the entry of a 404 answer to a request in session: the
// server does not know it (it ended or dropped it); why says more.
func sessionLost(session, why string) Entry {
	return Entry{Dir: Send, Transport: "http", Session: session, Kind: KindHTTP, Status: http.StatusNotFound, Note: why}
}

// A dropper ends HTTP sessions on purpose, as a server that lost them (a
// restart, an expiry) mid-run: after n requests in a session
// (Config.DropSession), that one and every later one get 404; or, with
// calls set (Config.DropAfterCalls), every request after the calls-th
// tools/call the lab received, in the session of that call, which is the
// one session dropped (a new one the client opens lives on). Zero n and
// calls drop none.
type dropper struct {
	n, calls int
	mu       sync.Mutex
	seen     map[string]int // requests per session (n)
	called   int            // tools/call received (calls)
	lost     string         // the session dropped after calls
}

// drop counts a request of method (a POST's; "" for a GET or DELETE) in
// session and reports whether it is refused.
func (d *dropper) drop(session, method string) bool {
	if d.n == 0 && d.calls == 0 || session == "" {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.calls > 0 {
		if session == d.lost {
			return true
		}
		if method == "tools/call" {
			if d.called++; d.called == d.calls {
				d.lost = session
			}
		}
		return false
	}
	if d.seen == nil {
		d.seen = make(map[string]int)
	}
	d.seen[session]++
	return d.seen[session] > d.n
}

// refuse answers a request of a dropped session with 404, logging why.
func (d *dropper) refuse(w http.ResponseWriter, log *MessageLog, session string) {
	why := fmt.Sprintf("after %d requests in it (-drop-session %d)", d.n, d.n)
	if d.calls > 0 {
		why = fmt.Sprintf("after tools/call number %d of the lab, in it (-drop-after-calls %d)", d.calls, d.calls)
	}
	log.Log(sessionLost(session, "the lab dropped the session on purpose "+why+": answered 404"))
	http.Error(w, "session not found", http.StatusNotFound)
}
