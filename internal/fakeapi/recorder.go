package fakeapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/jsonl"
)

// RequestsFile is the name of the file, under a recorder's directory, that
// holds the recorded requests as JSON Lines; in a run dir the recorder's
// directory is evidence.APIDir. TLSFile, beside it, holds the TLS
// handshakes (Handshake), when there were any.
const (
	RequestsFile = evidence.RequestsName
	TLSFile      = evidence.TLSName
)

// A Request is one recorded HTTP request and what the fake answered.
type Request struct {
	Seq    int         `json:"seq"`
	Time   time.Time   `json:"time"`
	Method string      `json:"method"`
	Path   string      `json:"path"`
	Query  string      `json:"query,omitempty"`
	Header http.Header `json:"header"`
	// Host is the host a request over TLS was addressed to (the direct
	// arm: the vendor's own host); empty for plain HTTP to the loopback
	// address the client was given.
	Host string `json:"host,omitempty"`
	// Body holds the body when it is JSON; BodyText holds any other body.
	Body     json.RawMessage `json:"body,omitempty"`
	BodyText string          `json:"body_text,omitempty"`
	// API names the shape that handled the request ("" for an unknown path).
	API    string `json:"api,omitempty"`
	Status int    `json:"status"`
	// Reply is the reader's reply line or a description of the scripted
	// turn; Upstream is set when the request was forwarded (live mode).
	Reply    string `json:"reply,omitempty"`
	Upstream string `json:"upstream,omitempty"`
	// Calls are the tool calls the fake answered with (a scripted turn),
	// Missed the scripted tools the request did not offer.
	Calls  []ToolCall `json:"calls,omitempty"`
	Missed []string   `json:"missed,omitempty"`
	// Loading are the scripted tools the reply loads through the
	// client's loader of deferred tools (ToolSearch) before calling them.
	Loading []string `json:"loading,omitempty"`
	// Duration is how long the answer took, in milliseconds.
	DurationMS float64 `json:"duration_ms"`
}

// credentialHeaders are removed from every recorded request.
var credentialHeaders = []string{"X-Api-Key", "Authorization", "Proxy-Authorization", "Cookie", "X-Goog-Api-Key"}

// Redact returns a copy of h with credential headers replaced by "[redacted]".
func Redact(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range credentialHeaders {
		if _, ok := out[k]; ok {
			out[k] = []string{"[redacted]"}
		}
	}
	return out
}

// A Recorder keeps recorded requests in memory and appends them to
// RequestsFile under its directory. It is safe for concurrent use.
type Recorder struct {
	mu    sync.Mutex
	dir   string
	seq   int
	reqs  []Request
	hands []Handshake
	f     *os.File
	tf    *os.File // TLSFile, opened at the first handshake
	err   error
	// closed is set by Close: what comes later stays in memory.
	closed bool
}

// NewRecorder returns a recorder writing under dir, or only to memory when
// dir is empty.
func NewRecorder(dir string) (*Recorder, error) {
	r := &Recorder{dir: dir}
	if dir == "" {
		return r, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating request log dir: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, RequestsFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("opening request log: %w", err)
	}
	r.f = f
	return r, nil
}

// next reserves the next sequence number, so requests keep arrival order
// even when their answers finish out of order.
func (r *Recorder) next() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	return r.seq
}

// Add records req, in memory and on file.
func (r *Recorder) Add(req Request) {
	req.Header = Redact(req.Header)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep bodies as sent, not with \u003c for <
	err := enc.Encode(req)
	line := buf.Bytes()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, req)
	if err != nil {
		r.err = fmt.Errorf("encoding request %d: %w", req.Seq, err)
		return
	}
	if r.f != nil {
		if _, err := r.f.Write(line); err != nil && r.err == nil {
			r.err = fmt.Errorf("writing request log: %w", err)
		}
	}
}

// addHandshake records h, in memory and on file.
func (r *Recorder) addHandshake(h Handshake) {
	line, err := json.Marshal(h)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hands = append(r.hands, h)
	if r.dir == "" || r.closed {
		return
	}
	if err == nil && r.tf == nil {
		r.tf, err = os.OpenFile(filepath.Join(r.dir, TLSFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	}
	if err == nil {
		_, err = r.tf.Write(append(line, '\n'))
	}
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("recording a TLS handshake: %w", err)
	}
}

// Handshakes returns the recorded TLS handshakes in arrival order.
func (r *Recorder) Handshakes() []Handshake {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Handshake(nil), r.hands...)
}

// Len is how many requests were recorded.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// Requests returns the recorded requests in arrival order.
func (r *Recorder) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := append([]Request(nil), r.reqs...)
	sortBySeq(out)
	return out
}

// Close closes the file and reports the first write error.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for _, f := range []**os.File{&r.f, &r.tf} {
		if *f != nil {
			if err := (*f).Close(); err != nil && r.err == nil {
				r.err = err
			}
			*f = nil
		}
	}
	return r.err
}

func sortBySeq(reqs []Request) {
	for i := 1; i < len(reqs); i++ {
		for j := i; j > 0 && reqs[j].Seq < reqs[j-1].Seq; j-- {
			reqs[j], reqs[j-1] = reqs[j-1], reqs[j]
		}
	}
}

// ReadHandshakes reads a TLSFile; a line that does not parse is a warning
// "file:line: message". A file that does not exist holds none.
func ReadHandshakes(path string) ([]Handshake, []string, error) {
	f, err := jsonl.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("opening recorded handshakes: %w", err)
	}
	defer f.Close()
	h, w := jsonl.Decode[Handshake](f, path)
	return h, w, nil
}

// ReadRequests reads a RequestsFile. A line that does not parse is reported
// in warnings as "file:line: message" and skipped. Requests come back in
// arrival order.
func ReadRequests(path string) (reqs []Request, warnings []string, err error) {
	f, err := jsonl.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("opening recorded requests: %w", err)
	}
	defer f.Close()
	reqs, warnings = jsonl.Decode[Request](f, path)
	sortBySeq(reqs)
	return reqs, warnings, nil
}
