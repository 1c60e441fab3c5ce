package live_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Concurrent connects to one server each get their own text: there is no
// shared instructions field for one connect to overwrite another's. The
// resolver yields mid-resolution to let connects interleave; -race watches.
// The deadline is long: 50 connects at once under -race on a loaded
// machine once kept a resolver waiting past the default 300ms, and the
// connect went ahead with no text, as it should (a race with the
// deadline, not what this test is about). A failure reported is an error.
func TestConcurrentConnectsOwnText(t *testing.T) {
	const n = 50
	errs := make(chan error, 2*n)
	s := mcp.NewServer(impl, nil)
	live.Install(s, func(ctx context.Context, c live.Conn) (string, error) {
		name := c.ClientInfo.Name
		select {
		case <-ctx.Done():
		default:
		}
		return "hello " + name, nil
	}, &live.Options{Deadline: time.Minute, Report: func(c live.Conn, err error) {
		errs <- fmt.Errorf("%s: resolution failed: %w", c.ClientInfo.Name, err)
	}})
	var wg sync.WaitGroup
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
