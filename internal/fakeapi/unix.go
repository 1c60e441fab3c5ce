package fakeapi

import (
	"fmt"
	"net"
	"os"
)

// ServeUnix also serves the fake on a Unix socket at path, for a client
// in another network namespace (see internal/netjail): requests that come
// that way are recorded like any other. Close stops it too.
func (s *Server) ServeUnix(path string) error {
	_ = os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", path, err)
	}
	go func() { _ = s.srv.Serve(ln) }()
	return nil
}
