// Package runner carries out a matrix: it provisions the clients it is
// given, then runs every planned run in a fresh directory of evidence, with
// its own fake model API and lab server, in its own process group, and,
// with Netns, inside a loopback-only network namespace. Each finished run
// is analysed at once (package analyze) with the runner's own client, so
// that -resume and a later report read the same result from the evidence.
package runner
