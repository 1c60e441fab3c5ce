// Package matrix runs a matrix of configurations (rows) against MCP clients
// and turns the evidence of each run into results. A row says what the lab
// server sends (instructions, era, delays) and how the client is started
// (environment, flags, model, prompt, scripted turns); every row runs a
// number of times per client, each run isolated in its own directory of
// evidence. Analysis reads only that evidence, so a table can be rebuilt
// from a directory long after the runs (see docs/evidence.md).
package matrix
