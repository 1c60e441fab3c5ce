// Package atlas walks the published version history of MCP clients and
// finds, by bisection, every version where what a client does with a
// server's text changed: whether it uses the instructions at all, where it
// puts them and how it wraps them, its cap and the cap's marker, whether it
// probes with server/discover and which era's text it keeps, and whether it
// waits for a slow server.
//
// A sweep runs a small probe matrix (Probe) on a version with the real
// client, reads the properties from the evidence alone (Properties), and
// compares neighbours: O(k log n) versions for k change points, not n. A
// version the adapter cannot drive is recorded as "could not run" with the
// reason and never taken for a change. The result is an Atlas: per client, a
// timeline of property values with the first version of each, every value
// linked to the evidence directory it was read from.
package atlas
