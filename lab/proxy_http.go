package lab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// hopHeaders are not passed on by a proxy (RFC 9110, section 7.6.1), and
// Accept-Encoding is dropped so that the upstream answers in plain text the
// log can read; the messages themselves are passed unchanged.
var hopHeaders = []string{
	"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Accept-Encoding",
}

// HTTPHandler returns a Streamable HTTP proxy to the MCP endpoint upstream:
// each request to it is sent to upstream with the same method, headers and
// body, and the answer comes back with the same status, headers and body,
// streamed (SSE events are passed on as they arrive). Requests whose Origin
// is not a loopback origin, or whose Host is not a loopback host, get 403;
// an upstream's redirect is not followed but answered with 502. Every
// message is logged like the stdio
// relay's: each request body, and each message of the answer (a JSON body,
// or each SSE event, whose lines may end in CRLF, LF or CR), holding at
// most 8 MiB of one message: a longer one is passed on whole and logged by
// its size and start. Mount it at /mcp. An upstream that cannot be reached
// gets a 502 and a KindFailure entry; the upstream's URL is in neither,
// since it may carry a credential.
func (p *Proxy) HTTPHandler(upstream string) (http.Handler, error) {
	u, err := url.Parse(upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream must be an http or https URL")
	}
	tr := &http.Transport{
		Proxy:               nil, // loopback; never through a proxy from the environment
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second}).DialContext,
		DisableCompression:  true,
		MaxIdleConnsPerHost: 16,
	}
	// A redirect is never followed: it would carry the config's headers
	// (a credential) and the body to wherever the upstream points.
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &httpProxy{p: p, upstream: u.String(), header: p.UpstreamHeader.Clone(), client: client}, nil
}

type httpProxy struct {
	p        *Proxy
	upstream string
	header   http.Header
	client   *http.Client
}

func (h *httpProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !loopbackOrigin(r.Header.Get("Origin")) {
		http.Error(w, "forbidden: Origin "+r.Header.Get("Origin")+" is not a loopback origin", http.StatusForbidden)
		return
	}
	if !LoopbackHost(r.Host) {
		http.Error(w, "forbidden: Host "+r.Host+" is not a loopback host", http.StatusForbidden)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	r.Body.Close()
	if err != nil {
		http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(body) > maxBody {
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	session := r.Header.Get("Mcp-Session-Id")
	asked := session // the session the request was made in
	if e, ok := exchangeEntry(r, session); ok {
		h.p.log.Log(e)
	}
	var t trackers
	if len(body) > 0 {
		h.p.log.Log(t.entry(Entry{Dir: Recv, Transport: "http", Session: session, Bytes: len(body)}, bytes.TrimSpace(body)))
	}
	out, err := http.NewRequestWithContext(r.Context(), r.Method, h.upstream, bytes.NewReader(body))
	if err != nil {
		http.Error(w, "proxy: "+err.Error(), http.StatusInternalServerError)
		return
	}
	out.Header = r.Header.Clone()
	for _, k := range hopHeaders {
		out.Header.Del(k)
	}
	for k, v := range h.header {
		out.Header[k] = v
	}
	resp, err := h.client.Do(out)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL
		}
		h.p.logServer(KindFailure, "reaching the upstream: "+err.Error())
		http.Error(w, "proxy: the upstream server cannot be reached: "+err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "" {
		why := fmt.Sprintf("the upstream answered HTTP %d, a redirect, which the proxy does not follow: it would send the request's headers and body elsewhere", resp.StatusCode)
		h.p.logServer(KindFailure, why)
		http.Error(w, "proxy: "+why, http.StatusBadGateway)
		return
	}
	if resp.StatusCode == http.StatusNotFound && asked != "" {
		h.p.log.Log(sessionLost(asked, "the server answered HTTP 404 to a request in its session: it no longer knows the session"))
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	for _, k := range hopHeaders {
		w.Header().Del(k)
	}
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		session = s
	}
	sent := func(data []byte) {
		h.p.log.Log(t.entry(Entry{Dir: Send, Transport: "http", Session: session, Bytes: len(data)}, data))
	}
	long := func(size int, start []byte) { h.p.log.Log(longEntry(session, size, start)) }
	w.WriteHeader(resp.StatusCode)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		h.passJSON(w, resp.Body, sent, long)
		return
	}
	tw := &tapWriter{ResponseWriter: w, sent: sent, long: long} // SSE: each event is logged before it is passed on
	buf := make([]byte, 32<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if _, werr := tw.Write(buf[:n]); werr != nil {
				return
			}
			tw.Flush()
		}
		if rerr != nil {
			if !errors.Is(rerr, io.EOF) && r.Context().Err() == nil {
				h.p.logServer(KindFailure, "reading the upstream's answer: "+rerr.Error())
			}
			return
		}
	}
}

// passJSON passes on a JSON answer. One of up to maxKeptBody is logged whole
// before it is passed on; a longer one is passed on as it comes, holding
// no more than its start, and logged by its size and start after.
func (h *httpProxy) passJSON(w io.Writer, body io.Reader, sent func([]byte), long func(int, []byte)) {
	data, err := io.ReadAll(io.LimitReader(body, maxKeptBody+1))
	if len(data) <= maxKeptBody {
		if t := bytes.TrimSpace(data); len(t) > 0 {
			sent(t)
		}
		w.Write(data)
	} else {
		start := bytes.Clone(data[:maxRaw])
		w.Write(data)
		data = nil
		var n int64
		n, err = io.Copy(w, body)
		long(maxKeptBody+1+int(n), start)
	}
	if err != nil {
		h.p.logServer(KindFailure, "reading the upstream's answer: "+err.Error())
	}
}
