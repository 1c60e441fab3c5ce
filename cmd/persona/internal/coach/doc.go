// Package coach is the persona server's domain: the coach personas (two
// built in, more added by the user) and the SQLite settings store that
// records which one is active. Opening a store does no I/O; the schema is
// created by [Store.InitSchema], which every entry point calls at startup.
package coach
