package tokens

import "math"

// A merger splits a piece that is not itself a token by byte-pair merging:
// repeatedly join the adjacent pair of parts whose join is the token of
// lowest rank (the leftmost of equals) until no join is a token. Its
// buffers are reused from piece to piece.
type merger struct {
	bounds []int // the parts' starts, and the piece's end
	ranks  []int // ranks[i]: the rank of parts i and i+1 joined, or noRank
	heap   mergeHeap
}

const noRank = math.MaxInt

// heapFrom is the piece length from which merging uses a heap: below it a
// scan for the lowest rank is faster, above it quadratic.
const heapFrom = 96

// merge calls yield with the rank of each part piece merges into.
func (m *merger) merge(v *vocab, piece string, yield func(int)) {
	if len(piece) >= heapFrom {
		m.mergeHeap(v, piece, yield)
		return
	}
	m.bounds = m.bounds[:0]
	for i := range len(piece) + 1 {
		m.bounds = append(m.bounds, i)
	}
	pair := func(i int) int { // the rank of parts i and i+1 joined
		if i+2 >= len(m.bounds) {
			return noRank
		}
		if r, ok := v.rank(piece[m.bounds[i]:m.bounds[i+2]]); ok {
			return r
		}
		return noRank
	}
	m.ranks = m.ranks[:0]
	for i := range len(m.bounds) - 1 {
		m.ranks = append(m.ranks, pair(i))
	}
	for {
		best := -1
		for i, r := range m.ranks {
			if r != noRank && (best < 0 || r < m.ranks[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		m.bounds = append(m.bounds[:best+1], m.bounds[best+2:]...)
		m.ranks = append(m.ranks[:best+1], m.ranks[best+2:]...)
		m.ranks[best] = pair(best)
		if best > 0 {
			m.ranks[best-1] = pair(best - 1)
		}
	}
	m.yieldParts(v, piece, yield)
}

func (m *merger) yieldParts(v *vocab, piece string, yield func(int)) {
	for i := 0; i+1 < len(m.bounds); i++ {
		r, _ := v.rank(piece[m.bounds[i]:m.bounds[i+1]]) // every byte is a token, and so every part
		yield(r)
	}
}

// mergeHeap merges as merge does, in O(n log n): the parts are a linked
// list of boundaries and the candidate joins a heap ordered by rank, then
// position.
func (m *merger) mergeHeap(v *vocab, piece string, yield func(int)) {
	n := len(piece)
	next := make([]int, n+1) // next[i]: the boundary after i; -1 at the end
	prev := make([]int, n+1)
	rank := make([]int, n+1) // rank[i]: the rank of the join at boundary i, or noRank
	for i := range next {
		next[i], prev[i], rank[i] = i+1, i-1, noRank
	}
	next[n] = -1
	join := func(i int) int {
		j := next[i]
		if j < 0 || next[j] < 0 {
			return noRank
		}
		if r, ok := v.rank(piece[i:next[j]]); ok {
			return r
		}
		return noRank
	}
	h := m.heap[:0]
	for i := 0; i+2 <= n; i++ {
		if rank[i] = join(i); rank[i] != noRank {
			h = append(h, candidate{rank[i], i})
		}
	}
	h.init()
	for len(h) > 0 {
		c := h.pop()
		i := c.at
		if rank[i] != c.rank {
			continue // stale: the join changed since
		}
		j := next[i]
		k := next[j]
		rank[j] = noRank
		next[i] = k
		if k >= 0 {
			prev[k] = i
		}
		for _, b := range [2]int{i, prev[i]} {
			if b < 0 {
				continue
			}
			if rank[b] = join(b); rank[b] != noRank {
				h.push(candidate{rank[b], b})
			}
		}
	}
	m.heap = h
	m.bounds = m.bounds[:0]
	for i := 0; i >= 0; i = next[i] {
		m.bounds = append(m.bounds, i)
	}
	m.yieldParts(v, piece, yield)
}

type candidate struct{ rank, at int }

// mergeHeap is a binary min-heap of candidates.
type mergeHeap []candidate

func (h mergeHeap) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].at < h[b].at
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c candidate) {
	*h = append(*h, c)
	for i := len(*h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			break
		}
		(*h)[i], (*h)[parent] = (*h)[parent], (*h)[i]
		i = parent
	}
}

func (h *mergeHeap) pop() candidate {
	old := *h
	top := old[0]
	last := len(old) - 1
	old[0] = old[last]
	*h = old[:last]
	h.down(0)
	return top
}

func (h mergeHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		small := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			small = r
		}
		if !h.less(small, i) {
			return
		}
		h[i], h[small] = h[small], h[i]
		i = small
	}
}
