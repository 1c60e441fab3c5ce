// Package labvocab holds the words that the lab's server and instrlab's
// analysis of its evidence share: the names of the surface's tools, the
// _meta keys, prompt and resource names it sends, the JSON Schema features
// its schema tools use, and the words in which the protocol group's
// findings are said. The lab serves these and the analysis looks for them
// in what a client sent; one spelling here keeps the two in step.
//
// The package is a leaf of words (it imports nothing of the module, nor the
// SDK), so that a server author's program that links the lab links
// nothing of the experiment with it (deps_test.go). What a library user of
// the lab configures (Config, SurfaceConfig and its groups) stays in the
// lab.
package labvocab
