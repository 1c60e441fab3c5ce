// Package bench measures MCP servers over stdio, the way a client meets
// them: the time from spawning a server to its initialize reply, and the
// rate at which it answers pipelined tools/list requests, with the peak
// memory of its process. Contenders run interleaved within one run
// (A, B, C, A, B, C, ...) and are compared by medians, since a shared
// machine's load drifts over minutes.
//
// instrlab bench is its command; the baseline server is ./bareserver.
package bench
