package fakeapi

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding names the tokenizer behind every token estimate. No public
// tokenizer matches Anthropic's models; every figure computed with it is an
// estimate and tables must say so.
const Encoding = string(tokenizer.O200kBase)

var codec = sync.OnceValues(func() (tokenizer.Codec, error) {
	return tokenizer.Get(tokenizer.O200kBase)
})

// EstimateTokens counts the tokens of s with Encoding. It returns -1 if the
// encoding cannot be loaded.
func EstimateTokens(s string) int {
	c, err := codec()
	if err != nil {
		return -1
	}
	n, err := c.Count(s)
	if err != nil {
		return -1
	}
	return n
}
