package tokens

import (
	_ "embed"
	"sync"
)

// o200k is the vocabulary as TestVocabFile lays it out, little-endian:
//
//	"o200k\x00v1"                  magic
//	uint32 n                       tokens, ranks 0 to n-1
//	uint32 bits                    the hash table has 1<<bits slots
//	uint32 × (n+1) offsets         token r is blob[offsets[r]:offsets[r+1]]
//	uint32 × (1<<bits) slots       rank+1 of the token hashed there, 0 for none
//	blob                           the tokens' bytes, in rank order
//
// The table is open-addressed (FNV-1a, linear probing) and used where it
// lies in the binary: loading it is checking its header.
//
//go:embed o200k_base.bin
var o200k string

const magic = "o200k\x00v1"

// A vocab maps tokens to ranks.
type vocab struct {
	n       int
	mask    uint32
	offsets string // (n+1) × uint32
	slots   string // (mask+1) × uint32
	blob    string
}

// vocabulary returns the embedded vocabulary, or nil if it is malformed.
var vocabulary = sync.OnceValue(func() *vocab { return parseVocab(o200k) })

func parseVocab(data string) *vocab {
	const head = len(magic) + 8
	if len(data) < head || data[:len(magic)] != magic {
		return nil
	}
	n := int(le32(data, len(magic)))
	bits := le32(data, len(magic)+4)
	if bits > 30 {
		return nil
	}
	slots := 1 << bits
	blobAt := head + 4*(n+1) + 4*slots
	if n <= 0 || blobAt > len(data) {
		return nil
	}
	v := &vocab{
		n:       n,
		mask:    uint32(slots - 1),
		offsets: data[head : head+4*(n+1)],
		slots:   data[head+4*(n+1) : blobAt],
		blob:    data[blobAt:],
	}
	if int(le32(v.offsets, 4*n)) != len(v.blob) {
		return nil
	}
	return v
}

func le32(s string, at int) uint32 {
	_ = s[at+3]
	return uint32(s[at]) | uint32(s[at+1])<<8 | uint32(s[at+2])<<16 | uint32(s[at+3])<<24
}

// token returns the bytes of the token of rank r.
func (v *vocab) token(r int) string {
	return v.blob[le32(v.offsets, 4*r):le32(v.offsets, 4*r+4)]
}

// rank returns the rank of the token b, if b is one.
func (v *vocab) rank(b string) (int, bool) {
	for i := hash(b) & v.mask; ; i = (i + 1) & v.mask {
		slot := le32(v.slots, 4*int(i))
		if slot == 0 {
			return 0, false
		}
		if r := int(slot - 1); v.token(r) == b {
			return r, true
		}
	}
}

// hash is 32-bit FNV-1a.
func hash(b string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(b); i++ {
		h ^= uint32(b[i])
		h *= 16777619
	}
	return h
}
