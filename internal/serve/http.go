package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/lab"
)

// loopbackAddr reports whether addr, as -http takes it, names a loopback
// host: a bare :PORT, localhost, or a loopback IP.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(listenAddr(addr))
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// listenAddr binds a bare :PORT to loopback.
func listenAddr(addr string) string {
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

// serveHTTP serves h at http://addr/mcp until ctx is done or log (which
// may be nil) fails; what names the server in the startup line.
func serveHTTP(ctx context.Context, c cmdline, what string, h http.Handler, log *lab.MessageLog, addr string, allowRemote bool, stderr io.Writer) error {
	ln, err := net.Listen("tcp", listenAddr(addr))
	if err != nil {
		return fmt.Errorf("%slistening: %w", c.prefix, err)
	}
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		if !allowRemote { // localhost resolved beyond loopback
			ln.Close()
			return cli.UsageError{Msg: fmt.Sprintf("%s-http %s listens on %s, which is not loopback; add -allow-remote to serve beyond this machine", c.prefix, addr, ln.Addr())}
		}
		fmt.Fprintf(stderr, "%s: warning: listening on %s, which is not loopback (-allow-remote)\n", c.prog, ln.Addr())
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", lab.WithWriteTimeout(h, lab.WriteTimeout))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "%s: %s serving http://%s/mcp\n", c.prog, what, ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-log.Failed():
		// Serve no request that would go unrecorded.
		srv.Close()
		return fmt.Errorf("stopped serving: %w", log.Err())
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return nil
	}
}
