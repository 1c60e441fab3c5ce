package live

import "errors"

// ErrDeadline is reported when a resolver has not returned by the deadline
// of [Options.Deadline]; the handshake went ahead with the fallback.
var ErrDeadline = errors.New("instructions deadline exceeded")

// ErrPanic is reported when a resolver panicked; the handshake went ahead
// with the fallback. The reported error carries the panic value.
var ErrPanic = errors.New("instructions resolver panicked")

// ErrOverBudget is reported when the instructions are longer than
// [Options.Budget]. They were sent whole unless [Options.Trim] is set.
var ErrOverBudget = errors.New("instructions over budget")
