package lab

// This file is the one vocabulary of protocol eras for all of instrlab:
// the probe of check, the matrix and its evidence, the report and the
// profiles say "era" in these words. The public live package keeps its own
// Era, an int, so that a server author's program depends on nothing of the
// lab; its String gives the same words as Era.

// An Era is how a client opens a connection to a server.
type Era string

// The two protocol eras.
const (
	Legacy Era = "legacy" // the initialize handshake, 2025-11-25 and earlier
	Modern Era = "modern" // no handshake: server/discover, 2026-07-28
)

// ModernVersion is the protocol revision without a handshake.
const ModernVersion = "2026-07-28"

// Method is the era's first request: initialize or server/discover.
func (e Era) Method() string {
	if e == Modern {
		return "server/discover"
	}
	return "initialize"
}

// Reply is the name evidence gives the era's reply (EraInitialize or
// EraDiscover): a text, its codewords and where a client put it are kept
// under it.
func (e Era) Reply() string {
	if e == Modern {
		return EraDiscover
	}
	return EraInitialize
}

// The replies a text is generated for, one an era: each gets its own pair
// of codewords, so that an answer proves which reply the client delivered.
const (
	EraInitialize = "initialize" // Legacy.Reply()
	EraDiscover   = "discover"   // Modern.Reply()
)

// The eras a lab server can speak (its -era, Config.Era, a matrix row's
// era).
const (
	EraLegacy = string(Legacy) // initialize only; server/discover is an unknown method
	EraDual   = "dual"         // both, with a different text (and codewords) in each
	EraModern = string(Modern) // server/discover only; initialize is refused
)

// Speaks reports whether a lab of -era mode ("" is EraLegacy) answers e's
// first request.
func Speaks(mode string, e Era) bool {
	switch mode {
	case EraDual:
		return true
	case EraModern:
		return e == Modern
	}
	return e == Legacy
}
