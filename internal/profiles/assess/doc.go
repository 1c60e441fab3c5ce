// Package assess turns what probe measured into what check reports: for
// each client profile, the era it ends up in, where it cuts the
// instructions and what is lost (characters and sections), estimated
// tokens, tool descriptions against the same cap, and findings, some of
// which break the rules a user set for CI. A Report carries all its
// printers need (WriteText), so no printer looks a profile up again.
package assess
