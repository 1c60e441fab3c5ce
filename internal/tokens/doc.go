// Package tokens counts tokens: the one tokenizer behind every token figure
// instrlab shows (check's estimates, run's fake model APIs and tables).
//
// It implements OpenAI's o200k_base encoding, the same counts as
// github.com/tiktoken-go/tokenizer (which the tests compare it with on every
// code point and on fuzzed text), without that package's start-up cost: its
// vocabulary is a 200,000-entry Go map built on first use (tens of
// milliseconds of CPU, the largest part of a check) and its pre-tokenizer
// needs a backtracking regexp engine whose tables are built at package
// initialization of every program that links it. Here the vocabulary is a
// hash table laid out at generation time and embedded as it is
// (o200k_base.bin, made by "go test -run TestVocabFile -update"), so the
// first count costs no more than the next, and the pre-tokenizer is written
// out by hand.
//
// No client's own tokenizer is public: every count is an estimate, and
// wherever one is shown it says so (Label).
package tokens
