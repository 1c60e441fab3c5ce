package fakeapi

import "fmt"

// A Bound is the most a live run may cost (instrlab run -live): every
// planned request at MaxIn input and MaxOut output tokens, at PriceIn and
// PriceOut USD per million tokens. It is printed before the run starts.
type Bound struct {
	MaxIn, MaxOut     int
	PriceIn, PriceOut float64
}

// SetPrice reads the prices from "IN/OUT", as in 15/75.
func (b *Bound) SetPrice(s string) error {
	if _, err := fmt.Sscanf(s, "%g/%g", &b.PriceIn, &b.PriceOut); err != nil {
		return fmt.Errorf("-live-price %q: want IN/OUT in USD per million tokens, as in 15/75", s)
	}
	return nil
}

// Line says the bound of n requests to the upstream at url.
func (b Bound) Line(n int, url string) string {
	cost := float64(n) * (float64(b.MaxIn)*b.PriceIn + float64(b.MaxOut)*b.PriceOut) / 1e6
	return fmt.Sprintf("live: up to %d requests to %s, at most %d input and %d output tokens each at $%g/$%g per million: at most $%.2f",
		n, url, b.MaxIn, b.MaxOut, b.PriceIn, b.PriceOut, cost)
}
