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

// Reply is the era's reply that carries a server's text: a text, its
// codewords and where a client put it are kept under its name.
func (e Era) Reply() Reply {
	if e == Modern {
		return ReplyDiscover
	}
	return ReplyInitialize
}

// A Reply names the reply of an era that carries a server's text. A text
// is generated for one reply: each gets its own pair of codewords, so that
// an answer proves which reply the client delivered. Evidence keeps it
// under the JSON name "era".
type Reply string

// The two replies, one an era.
const (
	ReplyInitialize Reply = "initialize" // Legacy.Reply()
	ReplyDiscover   Reply = "discover"   // Modern.Reply()
)

// Replies lists both replies, the legacy era's first.
func Replies() []Reply { return []Reply{ReplyInitialize, ReplyDiscover} }

// A Mode is which eras a lab server speaks: its -era (Args.Era,
// Config.Era, a matrix row's era). The zero Mode is ModeLegacy.
type Mode string

// The lab's modes.
const (
	ModeLegacy Mode = Mode(Legacy) // initialize only; server/discover is an unknown method
	ModeDual   Mode = "dual"       // both, with a different text (and codewords) in each
	ModeModern Mode = Mode(Modern) // server/discover only; initialize is refused
)

// Speaks reports whether a lab in mode m answers e's first request.
func (m Mode) Speaks(e Era) bool {
	switch m {
	case ModeDual:
		return true
	case ModeModern:
		return e == Modern
	}
	return e == Legacy
}
