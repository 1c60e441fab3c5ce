package fakeapi

import (
	"strings"
	"testing"
)

func TestBound(t *testing.T) {
	b := Bound{MaxIn: 60000, MaxOut: 4000}
	if err := b.SetPrice("15/75"); err != nil {
		t.Fatal(err)
	}
	want := "live: up to 20 requests to https://api.anthropic.com, at most 60000 input and 4000 output tokens each at $15/$75 per million: at most $24.00"
	if got := b.Line(20, "https://api.anthropic.com"); got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	for _, s := range []string{"cheap", "", "15"} {
		if err := new(Bound).SetPrice(s); err == nil || !strings.Contains(err.Error(), "-live-price") {
			t.Errorf("SetPrice(%q) = %v, want an error naming -live-price", s, err)
		}
	}
}
