// Package profiles holds what each MCP client version is known to do with a
// server's instructions and tool descriptions: the cap and how it counts,
// the marker it appends, how it renders the text into the model's context,
// how its cap setting is parsed, which era it ends up in, and how long it
// waits for a server to start. Profiles are data (JSON under data/), each
// naming the client version and the evidence it came from, so that a run
// of "instrlab run" can write one and check can use it unchanged; the
// binary carries them compiled (compact.go).
//
// The package tree owns profiles end to end: the schema, the data and the
// lookup (Select) here; derive makes a profile from a run's evidence;
// assess applies profiles to a server's text and prints the result.
package profiles
