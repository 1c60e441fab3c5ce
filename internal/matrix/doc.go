// Package matrix plans the experiment: a matrix of configurations (rows)
// to run against MCP clients. A row says what the lab server sends
// (instructions, era, delays) and how the client is started (environment,
// flags, model, prompt, scripted turns); every row runs a number of times
// per client and arm. The matrix file format, the built-in matrices, row
// selection and the split into shards are here; running the plan is
// package runner's job, and reading what the runs left package analyze's
// (see docs/evidence.md).
package matrix
