package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/instrlab/instrlab/lab"
)

// An HTTPServer is a user's Streamable HTTP server: its endpoint and the
// headers a config gives it. Both may carry credentials, so neither is
// written to the evidence: the client is given the proxy's URL, and the
// proxy adds the headers on its way upstream.
type HTTPServer struct {
	URL     string
	Headers map[string]string
}

// startHTTPProxy serves a recording proxy to s at http://127.0.0.1:PORT/mcp,
// logging to logPath, until stop is called.
func startHTTPProxy(s HTTPServer, logPath string) (url string, stop func(), err error) {
	log, err := lab.OpenMessageLog(logPath)
	if err != nil {
		return "", nil, err
	}
	p := lab.NewProxy(log)
	if len(s.Headers) > 0 {
		p.UpstreamHeader = http.Header{}
		for k, v := range s.Headers {
			p.UpstreamHeader.Set(k, v)
		}
	}
	h, err := p.HTTPHandler(s.URL)
	if err != nil {
		log.Close()
		return "", nil, fmt.Errorf("the server's URL: %w", err)
	}
	return serveLoopback(h, log, "the HTTP proxy")
}

// startHTTPLab serves the lab of a (its Log the run's lab log) over
// Streamable HTTP at http://127.0.0.1:PORT/mcp in this process, until
// stop is called: a matrix row of transport http (matrix.Row.HTTP).
func startHTTPLab(a lab.Args) (url string, stop func(), err error) {
	cfg, err := a.Config()
	if err != nil {
		return "", nil, err
	}
	if cfg.OnUnknown == lab.UnknownCrash {
		return "", nil, errors.New("on_unknown crash ends the lab's process, here the runner's: not over HTTP")
	}
	log, err := lab.OpenMessageLog(a.Log)
	if err != nil {
		return "", nil, err
	}
	cfg.Started, cfg.Log, cfg.Stderr = time.Now(), log, io.Discard
	if err := log.Started(cfg.Started, "served over HTTP by the runner, in its process"); err != nil {
		log.Close()
		return "", nil, err
	}
	l, err := lab.New(cfg)
	if err != nil {
		log.Close()
		return "", nil, err
	}
	return serveLoopback(l.Handler(), log, "the lab over HTTP")
}

// serveLoopback serves h at http://127.0.0.1:PORT/mcp until stop is
// called, which closes log once the server is down; what names the
// server in a failure entry of log.
func serveLoopback(h http.Handler, log *lab.MessageLog, what string) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Close()
		return "", nil, fmt.Errorf("listening for %s: %w", what, err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", lab.WithWriteTimeout(h, lab.WriteTimeout))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Log(lab.Entry{Dir: lab.ServerDir, Kind: lab.KindFailure, Note: what + " stopped: " + err.Error()})
		}
	}()
	stop = func() {
		// A client's open stream (a GET) would hold a graceful shutdown
		// to its end: the client has exited, so close what is left.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		<-done
		log.Close()
	}
	return "http://" + ln.Addr().String() + "/mcp", stop, nil
}
