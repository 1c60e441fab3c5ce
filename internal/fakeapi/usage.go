package fakeapi

import (
	"crypto/sha256"
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

// counted remembers recent counts by the text's hash: the fake counts a
// request when it answers, and the analysis counts the same request again.
var counted = struct {
	sync.Mutex
	m map[[32]byte]int
}{m: map[[32]byte]int{}}

// EstimateTokens counts the tokens of s with Encoding. It returns -1 if the
// encoding cannot be loaded.
func EstimateTokens(s string) int {
	if s == "" {
		return 0
	}
	key := sha256.Sum256([]byte(s))
	counted.Lock()
	n, ok := counted.m[key]
	counted.Unlock()
	if ok {
		return n
	}
	c, err := codec()
	if err != nil {
		return -1
	}
	n, err = c.Count(s)
	if err != nil {
		return -1
	}
	counted.Lock()
	if len(counted.m) >= 256 {
		clear(counted.m)
	}
	counted.m[key] = n
	counted.Unlock()
	return n
}
