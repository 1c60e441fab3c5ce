package tokens

import (
	"bytes"
	"encoding/binary"
	"flag"
	"os"
	"sync"
	"testing"

	tiktoken "github.com/tiktoken-go/tokenizer"
)

var update = flag.Bool("update", false, "rewrite o200k_base.bin from github.com/tiktoken-go/tokenizer")

// tableBits sizes the hash table: 2^19 slots for 199,998 tokens keeps
// probes for absent pairs (most lookups while merging) short.
const tableBits = 19

// TestVocabFile checks that the embedded vocabulary is the reference
// implementation's, laid out by layoutVocab; -update rewrites it.
func TestVocabFile(t *testing.T) {
	want := layoutVocab(t, referenceTokens(t))
	if *update {
		if err := os.WriteFile("o200k_base.bin", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal([]byte(o200k), want) {
		t.Fatalf("o200k_base.bin (%d bytes) differs from the reference vocabulary laid out (%d bytes); run go test -run TestVocabFile -update", len(o200k), len(want))
	}
	if vocabulary() == nil {
		t.Fatal("the embedded vocabulary does not parse")
	}
}

// referenceTokens returns the tokens of o200k_base by rank, from the
// reference implementation.
func referenceTokens(t testing.TB) []string {
	t.Helper()
	c := reference(t)
	var toks []string
	for r := uint(0); ; r++ {
		s, err := c.Decode([]uint{r})
		if err != nil {
			break
		}
		toks = append(toks, s)
	}
	if len(toks) < 199_000 {
		t.Fatalf("the reference has %d tokens", len(toks))
	}
	return toks
}

func reference(t testing.TB) tiktoken.Codec {
	t.Helper()
	c, err := referenceCodec()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var referenceCodec = sync.OnceValues(func() (tiktoken.Codec, error) { return tiktoken.Get(tiktoken.O200kBase) })

// layoutVocab lays tokens out as vocab.go reads them.
func layoutVocab(t testing.TB, toks []string) []byte {
	t.Helper()
	var blob bytes.Buffer
	offsets := make([]uint32, 0, len(toks)+1)
	for _, tok := range toks {
		offsets = append(offsets, uint32(blob.Len()))
		blob.WriteString(tok)
	}
	offsets = append(offsets, uint32(blob.Len()))
	slots := make([]uint32, 1<<tableBits)
	mask := uint32(len(slots) - 1)
	for r, tok := range toks {
		i := hash(tok) & mask
		for slots[i] != 0 {
			if toks[slots[i]-1] == tok {
				t.Fatalf("token %q twice (ranks %d and %d)", tok, slots[i]-1, r)
			}
			i = (i + 1) & mask
		}
		slots[i] = uint32(r + 1)
	}
	var out bytes.Buffer
	out.WriteString(magic)
	binary.Write(&out, binary.LittleEndian, uint32(len(toks)))
	binary.Write(&out, binary.LittleEndian, uint32(tableBits))
	binary.Write(&out, binary.LittleEndian, offsets)
	binary.Write(&out, binary.LittleEndian, slots)
	out.Write(blob.Bytes())
	return out.Bytes()
}
