package table

import "testing"

func TestQuote(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 5, `"abc"`},
		{"a\nb\x1b[31m", 10, `"a\nb\x1b[31m"`},
		{"日本語です", 2, `"日本"…`},
		{"\xff", 3, `"\xff"`},
	} {
		if got := Quote(tt.s, tt.n); got != tt.want {
			t.Errorf("Quote(%q, %d) = %s, want %s", tt.s, tt.n, got, tt.want)
		}
	}
}
