package matrix

import "fmt"

// A Shard is "k/n": this machine's part of a run or sweep split n ways, so
// that n machines (a CI matrix) share the work; the zero value is the
// whole. The parts depend only on the plan, never on timing or the
// machine, so the shards between them cover every run exactly once.
type Shard struct{ K, N int }

// ParseShard parses "k/n" with 1 <= k <= n; "" is the whole.
func ParseShard(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	var k, n int
	if _, err := fmt.Sscanf(s, "%d/%d", &k, &n); err != nil || fmt.Sprintf("%d/%d", k, n) != s {
		return Shard{}, fmt.Errorf("-shard %q: want k/n, as in 2/4", s)
	}
	if n < 1 || k < 1 || k > n {
		return Shard{}, fmt.Errorf("-shard %q: k must be from 1 to n", s)
	}
	return Shard{k, n}, nil
}

func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// Has reports whether the i-th planned item (from 0) belongs to the shard:
// items are dealt round-robin, so every shard gets a similar mix of rows
// and clients.
func (s Shard) Has(i int) bool { return s.N == 0 || i%s.N == s.K-1 }
