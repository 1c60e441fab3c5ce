package fakeapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/instrlab/instrlab/internal/tokens"
)

// Options configure a fake.
type Options struct {
	// Dir is where requests are recorded; empty records to memory only.
	Dir string
	// Prompt is the user's own prompt, which the reader skips.
	Prompt string
	// Script is the list of scripted turns.
	Script []Turn
	// Upstream, when set, forwards every request to a real API (live mode)
	// instead of answering as the reader.
	Upstream *Upstream
}

// A Server is a running fake on a loopback port.
type Server struct {
	// URL is the base URL, as in http://127.0.0.1:41234.
	URL      string
	Recorder *Recorder

	opts    Options
	answers []VendorAnswer
	srv     *http.Server
	ln      net.Listener
	done    chan struct{}
}

// Start listens on 127.0.0.1 at a random port and serves until Close.
func Start(opts Options) (*Server, error) {
	rec, err := NewRecorder(opts.Dir)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		rec.Close()
		return nil, fmt.Errorf("listening on loopback: %w", err)
	}
	s := &Server{URL: "http://" + ln.Addr().String(), Recorder: rec, opts: opts, ln: ln, done: make(chan struct{})}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.done)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// Close stops the server, waits for answers in flight, and closes the
// recorder.
func (s *Server) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	<-s.done
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.srv.Close()
	}
	return errors.Join(err, s.Recorder.Close())
}

// ServeHTTP records the request and answers it. It never panics on a
// malformed request: unknown paths and bodies get a JSON error.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	seq := s.Recorder.next()
	body, rerr := io.ReadAll(io.LimitReader(r.Body, 256<<20))
	rec := Request{Seq: seq, Time: start, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header}
	if r.TLS != nil {
		rec.Host = r.Host
	}
	if json.Valid(body) {
		rec.Body = json.RawMessage(bytes.Clone(body))
	} else if len(body) > 0 {
		rec.BodyText = string(body)
	}
	defer func() {
		if v := recover(); v != nil {
			rec.Status = http.StatusInternalServerError
			rec.Reply = fmt.Sprintf("fake panicked: %v", v)
			jsonError(w, http.StatusInternalServerError, "api_error", rec.Reply)
		}
		rec.DurationMS = float64(time.Since(start).Microseconds()) / 1000
		s.Recorder.Add(rec)
	}()
	if rerr != nil {
		rec.Status = http.StatusBadRequest
		jsonError(w, rec.Status, "invalid_request_error", "reading body: "+rerr.Error())
		return
	}
	var api API
	for _, a := range apis {
		if a.Match(r.Method, r.URL.Path) {
			api = a
			break
		}
	}
	if api == nil {
		if a, ok := s.vendorAnswer(r); ok {
			rec.Status, rec.Reply = http.StatusOK, "vendor answer: "+a.What
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(a.Body)
			return
		}
		rec.Status = http.StatusNotFound
		jsonError(w, rec.Status, "not_found_error", fmt.Sprintf("no fake for %s %s", r.Method, r.URL.Path))
		return
	}
	rec.API = api.Name()
	if s.opts.Upstream != nil {
		rec.Upstream = s.opts.Upstream.URL
		rec.Status, rec.Reply = s.opts.Upstream.forward(w, r, body)
		return
	}
	ctx, err := api.Context(body)
	if err != nil {
		rec.Status = http.StatusBadRequest
		jsonError(w, rec.Status, "invalid_request_error", err.Error())
		return
	}
	reply := plan(s.opts.Script, ctx, s.opts.Prompt, seq)
	reply.InputTokens = tokens.Count(ctx.Text())
	rec.Status = http.StatusOK
	rec.Reply, rec.Calls, rec.Missed, rec.Loading = reply.Describe(), reply.Calls, reply.Missed, reply.Loading
	if err := api.Write(w, r.URL.Path, body, reply); err != nil {
		rec.Reply += " (write failed: " + err.Error() + ")"
	}
}

func jsonError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
}
