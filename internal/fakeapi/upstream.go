package fakeapi

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// An Upstream is the real API a fake forwards to in live mode. The client
// under test only ever holds a dummy key: the fake replaces the client's
// credentials with Key on the way out, so the user's key reaches the
// upstream and nothing else, and is never recorded.
type Upstream struct {
	URL    string // base URL, as in https://api.anthropic.com
	Key    string // sent as x-api-key
	Client *http.Client
}

// forward sends the request on and copies the answer back, streaming. It
// returns the status and a short description for the record.
func (u *Upstream) forward(w http.ResponseWriter, r *http.Request, body []byte) (int, string) {
	req, err := http.NewRequestWithContext(r.Context(), r.Method, strings.TrimRight(u.URL, "/")+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		jsonError(w, http.StatusBadGateway, "api_error", err.Error())
		return http.StatusBadGateway, "building upstream request: " + err.Error()
	}
	for k, v := range r.Header {
		switch http.CanonicalHeaderKey(k) {
		case "X-Api-Key", "Authorization", "Host", "Content-Length", "Accept-Encoding":
			continue
		}
		req.Header[k] = v
	}
	req.Header.Set("X-Api-Key", u.Key)
	hc := u.Client
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		jsonError(w, http.StatusBadGateway, "api_error", "upstream: "+err.Error())
		return http.StatusBadGateway, "upstream: " + err.Error()
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		if http.CanonicalHeaderKey(k) == "Content-Length" {
			continue
		}
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	var n int64
	buf := make([]byte, 32<<10)
	for {
		m, rerr := resp.Body.Read(buf)
		if m > 0 {
			if _, err := w.Write(buf[:m]); err != nil {
				break
			}
			n += int64(m)
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return resp.StatusCode, fmt.Sprintf("forwarded, reading upstream failed after %d bytes: %v", n, rerr)
		}
	}
	return resp.StatusCode, fmt.Sprintf("forwarded, %d bytes", n)
}
