package probe

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// An httpRecorder is an http.RoundTripper that adds the configured headers
// and remembers the last exchange: what came back when it was not MCP.
type httpRecorder struct {
	base    *http.Transport
	headers map[string]string
	// life ends every request still open when the era is over, including
	// those the SDK made with contexts of its own.
	life context.Context
	end  context.CancelFunc

	mu sync.Mutex
	x  exchange
	ok bool
}

type exchange struct {
	url         string
	status      int
	contentType string
	location    string
	body        []byte // the start of the body
	err         error
	at          time.Time // when the response (or the error) came
}

// bodyHead is how much of each response body is kept.
const bodyHead = 4096

// MaxAnswer is the most check reads of one answer of an HTTP server: a JSON
// body, or one SSE event (the SDK transport's MaxEventSize). A longer one
// fails its era with an error that names this limit.
const MaxAnswer = 8 << 20

// errAnswerTooLong is the error of an answer longer than MaxAnswer.
var errAnswerTooLong = fmt.Errorf("the server's answer is longer than %d bytes (8 MiB), the most check reads", MaxAnswer)

func (h *httpRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	stop := context.AfterFunc(h.life, cancel)
	req = req.Clone(ctx)
	for k, v := range h.headers {
		req.Header.Set(k, v)
	}
	resp, err := h.base.RoundTrip(req)
	if err != nil {
		stop()
		cancel()
	} else {
		resp.Body = &endBody{ReadCloser: resp.Body, end: func() { stop(); cancel() }}
	}
	x := exchange{url: req.URL.Redacted(), err: err, at: time.Now()}
	if err == nil {
		x.status = resp.StatusCode
		x.contentType = resp.Header.Get("Content-Type")
		x.location = resp.Header.Get("Location")
		if !strings.HasPrefix(x.contentType, "text/event-stream") {
			// Read a JSON or error body whole (bounded), keep its head,
			// and hand the SDK the same bytes.
			data, rerr := io.ReadAll(io.LimitReader(resp.Body, MaxAnswer+1))
			resp.Body.Close()
			if rerr == nil && len(data) > MaxAnswer {
				rerr = errAnswerTooLong
			}
			x.body = data[:min(len(data), bodyHead)]
			resp.Body = io.NopCloser(bytes.NewReader(data))
			if rerr != nil {
				x.err, resp, err = rerr, nil, rerr
			}
		}
	}
	h.mu.Lock()
	h.x, h.ok = x, true
	h.mu.Unlock()
	return resp, err
}

// An endBody releases its request's context when closed.
type endBody struct {
	io.ReadCloser
	end func()
}

func (b *endBody) Close() error {
	err := b.ReadCloser.Close()
	b.end()
	return err
}

func (h *httpRecorder) last() (exchange, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.x, h.ok
}

func isHTML(contentType string, body []byte) bool {
	if strings.HasPrefix(contentType, "text/html") {
		return true
	}
	b := bytes.ToLower(bytes.TrimSpace(body[:min(len(body), 64)]))
	return bytes.HasPrefix(b, []byte("<!doctype html")) || bytes.HasPrefix(b, []byte("<html"))
}
