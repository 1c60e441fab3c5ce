package live_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A resolver that fails or panics never breaks the handshake: the fallback
// is served and the failure reported, in both eras.
func TestFailOpen(t *testing.T) {
	errDBDown := errors.New("db down")
	tests := []struct {
		name     string
		resolve  live.Resolver
		fallback string
		want     string
		wantErr  error // nil: nothing reported
	}{
		{
			name:    "ok",
			resolve: func(context.Context, live.Conn) (string, error) { return "hello", nil },
			want:    "hello",
		},
		{
			name:     "error with fallback",
			resolve:  func(context.Context, live.Conn) (string, error) { return "partial", errDBDown },
			fallback: "be plain",
			want:     "be plain",
			wantErr:  errDBDown,
		},
		{
			name:    "error without fallback",
			resolve: func(context.Context, live.Conn) (string, error) { return "", errDBDown },
			want:    "",
			wantErr: errDBDown,
		},
		{
			name:     "panic",
			resolve:  func(context.Context, live.Conn) (string, error) { panic("nil map") },
			fallback: "be plain",
			want:     "be plain",
			wantErr:  live.ErrPanic,
		},
	}
	for _, tt := range tests {
		for _, version := range []string{"", legacyVersion} {
			t.Run(tt.name+" "+version, func(t *testing.T) {
				var mu sync.Mutex
				var reported []error
				s := mcp.NewServer(impl, nil)
				live.Install(s, tt.resolve, &live.Options{
					Fallback: tt.fallback,
					Report: func(c live.Conn, err error) {
						mu.Lock()
						defer mu.Unlock()
						reported = append(reported, err)
					},
				})
				got, _ := connectMemory(t, s, version)
				if got != tt.want {
					t.Errorf("instructions = %q, want %q", got, tt.want)
				}
				mu.Lock()
				defer mu.Unlock()
				switch {
				case tt.wantErr == nil && len(reported) > 0:
					t.Errorf("reported %v, want nothing", reported)
				case tt.wantErr != nil && (len(reported) != 1 || !errors.Is(reported[0], tt.wantErr)):
					t.Errorf("reported %v, want one error matching %v", reported, tt.wantErr)
				}
			})
		}
	}
}
