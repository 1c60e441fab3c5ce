// Package fingerprint names what a server sent, and how it was started, in
// a few characters: each text's length and the start of its SHA-256, the
// tool list's count and digest, and the names (never the values) of the
// variables the server was given. check and run each start the server
// themselves; their fingerprints say whether they examined the same
// server, and where they did not, that they did not.
package fingerprint
