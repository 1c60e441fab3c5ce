// Package derive writes client profiles from the evidence of a matrix
// run: the cap, marker and cap setting from runs whose text was cut, the
// rendering from the recorded requests, the handshake from the lab's
// message log and the startup wait from runs with a slow server. What the
// runs do not show is listed as unmeasured, never guessed.
package derive
