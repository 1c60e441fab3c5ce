package assess

import (
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding is the tokenizer every estimate uses. No client's own tokenizer
// is public; cl100k_base is closer than o200k_base to the Japanese
// chars-per-token Claude showed in the seed (about 1.2), and further on
// English (Claude 3.1, cl100k 4.0), so estimates are low for English.
const Encoding = tokenizer.Cl100kBase

// TokenizerLabel names the estimate wherever a count is shown.
const TokenizerLabel = "estimate, tiktoken " + string(Encoding) + " (not the client's tokenizer)"

var codec = sync.OnceValues(func() (tokenizer.Codec, error) { return tokenizer.Get(Encoding) })

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
