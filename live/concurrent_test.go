package live_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Concurrent connects to one server each get their own text: there is no
// shared instructions field for one connect to overwrite another's. The
// resolver yields mid-resolution to let connects interleave; -race watches.
func TestConcurrentConnectsOwnText(t *testing.T) {
	s := mcp.NewServer(impl, nil)
	live.Install(s, func(ctx context.Context, c live.Conn) (string, error) {
		name := c.ClientInfo.Name
		select {
		case <-ctx.Done():
		default:
		}
		return "hello " + name, nil
	}, nil)
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			name := fmt.Sprintf("client-%d", i)
			version := ""
			if i%2 == 1 {
				version = legacyVersion
			}
			ctx := context.Background()
			st, ct := mcp.NewInMemoryTransports()
			ss, err := s.Connect(ctx, st, nil)
			if err != nil {
				errs <- err
				return
			}
			defer ss.Close()
			client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "v0"}, nil)
			cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				errs <- err
				return
			}
			defer cs.Close()
			if got, want := cs.InitializeResult().Instructions, "hello "+name; got != want {
				errs <- fmt.Errorf("%s got %q, want %q", name, got, want)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
