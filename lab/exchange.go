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

// A dropper ends HTTP sessions on purpose (Config.DropSession): after n
// requests in a session, that one and every later one get 404, as from
// a server that lost the session (a restart, an expiry) mid-run. Zero n
// drops none.
type dropper struct {
	n    int
	mu   sync.Mutex
	seen map[string]int
}

// drop counts a request in session and reports whether it is refused.
func (d *dropper) drop(session string) bool {
	if d.n == 0 || session == "" {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seen == nil {
		d.seen = make(map[string]int)
	}
	d.seen[session]++
	return d.seen[session] > d.n
}

// refuse answers a request of a dropped session with 404, logging why.
func (d *dropper) refuse(w http.ResponseWriter, log *MessageLog, session string) {
	log.Log(sessionLost(session, fmt.Sprintf("the lab dropped the session on purpose after %d requests in it (-drop-session %d): answered 404", d.n, d.n)))
	http.Error(w, "session not found", http.StatusNotFound)
}
