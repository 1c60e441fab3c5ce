package live

import (
	"context"
	"fmt"
)

// outcome is what a resolver returned, or the panic it raised.
type outcome struct {
	text string
	err  error
}

// instructions resolves the text for c, falling back on failure and fitting
// the result to the budget. It returns within the deadline.
func (cfg *config) instructions(ctx context.Context, r Resolver, c Conn) string {
	text, err := cfg.resolve(ctx, r, c)
	if err != nil {
		cfg.report(c, fmt.Errorf("resolving %s instructions: %w", c.Era, err))
		text = cfg.fallback
	}
	return cfg.fit(c, text)
}

// resolve runs r in its own goroutine so that neither a panic nor a resolver
// that ignores its context can hold the handshake past the deadline. A late
// resolver keeps running until it returns; the buffered channel lets it exit.
func (cfg *config) resolve(ctx context.Context, r Resolver, c Conn) (string, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.deadline, ErrDeadline)
	defer cancel()
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- outcome{err: fmt.Errorf("%w: %v", ErrPanic, v)}
			}
		}()
		text, err := r(ctx, c)
		done <- outcome{text: text, err: err}
	}()
	select {
	case out := <-done:
		if out.err != nil && ctx.Err() != nil {
			// The resolver gave up because its context ended: say why.
			return "", fmt.Errorf("%w (resolver: %v)", context.Cause(ctx), out.err)
		}
		return out.text, out.err
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}
