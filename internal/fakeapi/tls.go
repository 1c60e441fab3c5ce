package fakeapi

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// A Handshake is one TLS connection a client opened to the fake as its
// vendor's host (the direct arm): the host it asked for (SNI), the
// protocol agreed, or why the handshake failed, as in "remote error: tls:
// unknown certificate authority" when the client refused the run's
// certificate.
type Handshake struct {
	Time  time.Time `json:"time"`
	SNI   string    `json:"sni"`
	ALPN  string    `json:"alpn,omitempty"`
	Error string    `json:"error,omitempty"`
}

// handshakeTimeout bounds a client's TLS handshake.
const handshakeTimeout = 10 * time.Second

// ServeTLS also serves the fake over TLS with cfg on a Unix socket at
// path, for a client in a jail that resolves its vendor's host to the fake
// (see internal/netjail). Every handshake is recorded (Recorder.Handshakes,
// TLSName beside the requests); a request that comes this way is recorded
// with the host it was addressed to. Close stops it too.
func (s *Server) ServeTLS(path string, cfg *tls.Config) error {
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", path, err)
	}
	tl := &tlsListener{Listener: ln, cfg: cfg, rec: s.Recorder, conns: make(chan net.Conn), done: make(chan struct{})}
	go tl.accept()
	go func() { _ = s.srv.Serve(tl) }()
	return nil
}

// A tlsListener hands out connections whose TLS handshake is done, so that
// each failed handshake is recorded with the host it asked for (the
// http.Server would only log it).
type tlsListener struct {
	net.Listener
	cfg   *tls.Config
	rec   *Recorder
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *tlsListener) accept() {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			l.Close()
			return
		}
		go l.handshake(c)
	}
}

// handshake runs the server side of one handshake and passes the
// connection on, or records why it failed and closes it.
func (l *tlsListener) handshake(c net.Conn) {
	var sni string
	cfg := l.cfg.Clone()
	cfg.GetConfigForClient = func(h *tls.ClientHelloInfo) (*tls.Config, error) {
		sni = h.ServerName
		return nil, nil
	}
	tc := tls.Server(c, cfg)
	_ = tc.SetDeadline(time.Now().Add(handshakeTimeout))
	err := tc.Handshake()
	_ = tc.SetDeadline(time.Time{})
	h := Handshake{Time: time.Now().UTC(), SNI: sni}
	if err != nil {
		h.Error = err.Error()
		l.rec.addHandshake(h)
		tc.Close()
		return
	}
	h.ALPN = tc.ConnectionState().NegotiatedProtocol
	l.rec.addHandshake(h)
	select {
	case l.conns <- tc:
	case <-l.done:
		tc.Close()
	}
}

// Accept returns the next connection whose handshake succeeded.
func (l *tlsListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops accepting.
func (l *tlsListener) Close() error {
	var err error
	l.once.Do(func() {
		close(l.done)
		err = l.Listener.Close()
	})
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}
