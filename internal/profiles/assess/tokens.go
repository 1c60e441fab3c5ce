package assess

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding is the tokenizer every estimate uses, the same as instrlab run's
// tables, so that one text gets one count across the tool. No client's own
// tokenizer is public. On the lab's texts o200k_base gives about 4.0
// characters per token in English and 1.5 in Japanese, where Claude showed
// about 3.1 and 1.2 in the seed: the estimates are low, by a quarter or so.
const Encoding = tokenizer.O200kBase

// TokenizerLabel names the estimate wherever a count is shown.
const TokenizerLabel = "estimate, tiktoken " + string(Encoding) + " (not the client's tokenizer)"

var codec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(Encoding) })

// Preload loads the tokenizer in the background, so that its load (tens
// of milliseconds) overlaps the probes instead of following them.
func Preload() { go codec() }

// Tokens estimates the tokens of s; -1 if the tokenizer is unavailable.
func Tokens(s string) int {
	if s == "" {
		return 0
	}
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
