package runner

import (
	"context"
	"errors"
	"fmt"
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Close()
		return "", nil, fmt.Errorf("listening for the HTTP proxy: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Log(lab.Entry{Dir: lab.ServerDir, Kind: lab.KindFailure, Note: "the HTTP proxy stopped: " + err.Error()})
		}
	}()
	stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		<-done
		log.Close()
	}
	return "http://" + ln.Addr().String() + "/mcp", stop, nil
}
