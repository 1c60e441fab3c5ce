package live

import (
	"log/slog"
	"time"
)

// DefaultDeadline bounds a resolution when [Options.Deadline] is zero. It is
// short next to the connect timeouts of common clients (tens of seconds), so
// a stuck resolver costs a connect this much and no more.
const DefaultDeadline = 300 * time.Millisecond

// Options configures [Install] and [Middleware]. The zero value is ready to
// use: a 300ms deadline, no fallback, no budget, failures logged to
// [slog.Default].
type Options struct {
	// Deadline bounds each resolution; zero or negative means
	// [DefaultDeadline]. The handshake waits no longer than this.
	Deadline time.Duration

	// Fallback is sent when resolution fails. Empty means no instructions.
	Fallback string

	// Budget, if positive, is the largest number of characters (runes) the
	// instructions should have. Clients cut long instructions silently;
	// longer text is reported with [ErrOverBudget].
	Budget int

	// Trim, with a Budget, cuts longer text to the longest head that ends
	// at a section boundary (a blank line or a Markdown heading) and fits.
	// Without Trim the text is sent whole and only reported.
	Trim bool

	// Report receives each failure ([ErrDeadline], [ErrPanic], a resolver's
	// own error, the caller's cancellation) and each over-budget text
	// ([ErrOverBudget]). It may be called concurrently. If nil, failures
	// are logged with [slog.Default] at level Warn.
	Report func(c Conn, err error)
}

// config is Options with the defaults filled in, copied once so that later
// changes to the caller's Options have no effect.
type config struct {
	deadline time.Duration
	fallback string
	budget   int
	trim     bool
	report   func(Conn, error)
}

func newConfig(opts *Options) config {
	var o Options
	if opts != nil {
		o = *opts
	}
	c := config{
		deadline: o.Deadline,
		fallback: o.Fallback,
		budget:   o.Budget,
		trim:     o.Trim,
		report:   o.Report,
	}
	if c.deadline <= 0 {
		c.deadline = DefaultDeadline
	}
	if c.report == nil {
		c.report = SlogReport(nil)
	}
	return c
}

// SlogReport returns a Report function that logs to l at level Warn, or to
// [slog.Default] if l is nil.
func SlogReport(l *slog.Logger) func(Conn, error) {
	return func(c Conn, err error) {
		logger := l
		if logger == nil {
			logger = slog.Default()
		}
		logger.Warn("live instructions", "era", c.Era.String(), "session", c.SessionID, "err", err)
	}
}
