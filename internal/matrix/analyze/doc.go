// Package analyze turns the evidence one run left into a Result: the run
// record, the recorded model requests (where the server's texts were
// placed and how much of them arrived), the lab's message log (the
// handshake, a user's server's texts and failures) and the client's own
// files, read by the client that the caller's Clients finds. It reads
// only files, so a table can be rebuilt from a directory long after the
// runs, and it links no client: report and profiles use it as they are.
package analyze
