package lab

import "fmt"

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

// A Mode is which eras a lab server speaks: its -eras (Args.Eras,
// Config.Eras, a matrix row's eras): one era, or both written
// "legacy,modern". The zero Mode is ModeLegacy.
type Mode string

// The lab's modes.
const (
	ModeLegacy Mode = Mode(Legacy)    // initialize only; server/discover is an unknown method
	ModeBoth   Mode = "legacy,modern" // both, with a different text (and codewords) in each
	ModeModern Mode = Mode(Modern)    // server/discover only; initialize is refused
)

// modeDual is ModeBoth's name before the glossary (docs/glossary.md):
// "dual" is not an era. Evidence written before says it, and it is still
// read as ModeBoth.
const modeDual = "dual"

// ParseMode reads a -eras value: legacy, modern, or both separated by a
// comma in either order (and "dual", ModeBoth's old name); "" is
// ModeLegacy.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "", string(Legacy):
		return ModeLegacy, nil
	case string(Modern):
		return ModeModern, nil
	case string(ModeBoth), string(Modern) + "," + string(Legacy), modeDual:
		return ModeBoth, nil
	}
	return "", fmt.Errorf("unknown eras %q (want legacy, modern or legacy,modern)", s)
}

// UnmarshalText reads a Mode from JSON as ParseMode does, keeping a value
// it does not know as it is, for Config.Validate to refuse with the
// others.
func (m *Mode) UnmarshalText(b []byte) error {
	*m = Mode(b)
	if p, err := ParseMode(string(b)); err == nil {
		*m = p
	}
	return nil
}

// Speaks reports whether a lab in mode m answers e's first request.
func (m Mode) Speaks(e Era) bool {
	switch m {
	case ModeBoth:
		return true
	case ModeModern:
		return e == Modern
	}
	return e == Legacy
}
