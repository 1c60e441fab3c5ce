package live_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A resolver slower than the deadline costs the handshake the deadline and
// no more; the reply has no instructions and the failure is reported. The
// bubble's fake clock makes the measurement exact.
func TestDeadline(t *testing.T) {
	const deadline = 250 * time.Millisecond
	// Each resolver gets a channel the test closes at its end, so that the
	// bubble's goroutines all exit.
	tests := []struct {
		name    string
		resolve func(release <-chan struct{}) live.Resolver
	}{
		{"ignores its context", func(release <-chan struct{}) live.Resolver {
			return func(ctx context.Context, c live.Conn) (string, error) {
				<-release
				return "too late", nil
			}
		}},
		{"honours its context", func(release <-chan struct{}) live.Resolver {
			return func(ctx context.Context, c live.Conn) (string, error) {
				<-ctx.Done()
				return "", ctx.Err()
			}
		}},
	}
	for _, tt := range tests {
		for _, version := range []string{"", legacyVersion} {
			t.Run(tt.name+" "+version, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					reported := make(chan error, 1)
					release := make(chan struct{})
					defer close(release)
					s := mcp.NewServer(impl, nil)
					live.Install(s, tt.resolve(release), &live.Options{
						Deadline: deadline,
						Report:   func(c live.Conn, err error) { reported <- err },
					})
					start := time.Now()
					got, _ := connectMemory(t, s, version)
					elapsed := time.Since(start)
					if got != "" {
						t.Errorf("instructions = %q, want none", got)
					}
					if elapsed < deadline || elapsed > deadline+10*time.Millisecond {
						t.Errorf("handshake took %v, want the deadline %v", elapsed, deadline)
					}
					if err := <-reported; !errors.Is(err, live.ErrDeadline) {
						t.Errorf("reported %v, want %v", err, live.ErrDeadline)
					}
				})
			})
		}
	}
}
