package tokens

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/lab"
	tiktoken "github.com/tiktoken-go/tokenizer"
)

// ranks returns the ranks of s's tokens.
func ranks(s string) []int {
	out := []int{}
	encode(vocabulary(), s, func(r int) { out = append(out, r) })
	return out
}

// referenceRanks returns the reference implementation's ranks of s.
func referenceRanks(t testing.TB, s string) []int {
	t.Helper()
	ids, _, err := reference(t).Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

func sameAsReference(t *testing.T, name, s string) {
	t.Helper()
	want := referenceRanks(t, s)
	if diff := cmp.Diff(want, ranks(s)); diff != "" {
		t.Errorf("%s: tokens mismatch (-want +got):\n%s", name, diff)
	}
	if got := Count(s); got != len(want) {
		t.Errorf("%s: Count = %d, want %d", name, got, len(want))
	}
}

func TestCountMatchesReference(t *testing.T) {
	texts := map[string]string{
		"empty":          "",
		"words":          "Hello, world! It's a test: we'll see what they've done; I'm sure you'd agree. DON'T SHOUT'S",
		"numbers":        "1 12 123 1234 12345 3.14159 1,000,000 ٣٤٥ Ⅻ ½",
		"spaces":         "a  b   c\t\td \n\n  e  \r\n f   \n  \n  x    ",
		"trailing":       "end   ",
		"line breaks":    "a\n\n\nb\r\n\r\nc \n d\n \n \ne",
		"del":            "\x7f a\x7fb !\x7f! \x7f\x7f",
		"punctuation":    "x ... !!! ?? -- // <|endoftext|> {\"json\": [1, 2]}\n/* c */ a/b//\n",
		"japanese":       "日本語のテキストです。カタカナとひらがな、漢字。",
		"emoji":          "👩‍👩‍👧‍👦 🇯🇵 ✨✨ 🙂",
		"combining":      "é é ñ n\u0303 \u0301\u0301 a\u0308\u0308\u0308",
		"mixed case":     "CamelCase HTTPServer iPhone McDonald'S ǅemal ǅ",
		"contractions":   "'s 't 're 've 'm 'll 'd 'S 'LL 'Ve 'ſ x'ſ don'tcha",
		"invalid utf8":   "a\xffb\xc3(\xe2\x82 \xf0\x9f\x98",
		"long run":       strings.Repeat("=", 500) + strings.Repeat(" ", 300) + strings.Repeat("ab", 200),
		"long word":      strings.Repeat("supercalifragilistic", 20),
		"symbols":        "© ® ™ § ¶ † ‡ • … ‰ ′ ″ ‹ › « » ¡ ¿ € £ ¥ ¢ ∑ ∏ √ ∞ ≈ ≠ ≤ ≥",
		"nbsp and co":    "a\u00a0b\u2003c\u3000d\u200be\u2028f\u0085g\ufeffh",
		"right to left":  "שלום עולם مرحبا بالعالم",
		"lone marks":     "\u0301 x\u0301\u0301 1\u0301 .\u0301 \n\u0301",
		"title case":     "ǈ ǋ ǲ ᾈ ᾉ Ǆ",
		"modifier":       "ʰ ʲ ˠ ˤ ᴬ aʰ Aʰ ʰA",
		"other letters":  "ª º ƻ ǀ ǁ א 中 ㄅ",
		"all scripts":    "Ελληνικά Русский ქართული Հայերեն ไทย ລາວ ខ្មែរ देवनागरी தமிழ் 한국어",
		"code":           "func main() {\n\tfmt.Println(\"hi\")\n}\n\n// comment\nx := a[i:j]\n",
		"markdown table": "| a | b |\n|---|---|\n| 1 | 2 |\n",
	}
	for _, kind := range []string{"ascii", "japanese", "emoji", "cjkb", "combining"} {
		in, err := lab.ParseInstructions(kind + ":2000")
		if err != nil {
			t.Fatal(err)
		}
		for era, e := range map[string]lab.Reply{"initialize": lab.ReplyInitialize, "discover": lab.ReplyDiscover} {
			text, err := in.For(e)
			if err != nil {
				t.Fatal(err)
			}
			texts["lab "+kind+" "+era] = text.Text
		}
	}
	for name, s := range texts {
		sameAsReference(t, name, s)
	}
}

// TestCodePoints compares the split of code points, alone and between
// other characters, since each class of the pre-tokenizer is a set of
// Unicode categories: every code point below U+0100 (where the reference
// has ASCII fast paths), every one that begins or ends a run of one
// category signature, and every 509th. -all tests all 1.1 million
// (minutes).
func TestCodePoints(t *testing.T) {
	contexts := []string{"%", "a%", "A%b", "%%", " %", "%  ", "'%", "%'s", "1%", "\n%", "%\n", ".%.", "%a", "%A"}
	var b strings.Builder
	first, n := rune(-1), 0
	check := func() {
		s := b.String()
		b.Reset()
		want := referenceRanks(t, s)
		if got := ranks(s); !slices.Equal(got, want) {
			for r := first; r <= first+4096; r++ { // narrow it down, for a readable failure
				for _, c := range contexts {
					one := strings.ReplaceAll(c, "%", string(r))
					if w, g := referenceRanks(t, one), ranks(one); utf8.ValidRune(r) && !slices.Equal(g, w) {
						t.Fatalf("U+%04X in %q: got %v, want %v", r, c, g, w)
					}
				}
			}
			t.Fatalf("from U+%04X: the ranks differ", first)
		}
		first = -1
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) || !(*all || r < 0x100 || r%509 == 0 || signature(r) != signature(r-1) || signature(r) != signature(r+1)) {
			continue
		}
		if first < 0 {
			first = r
		}
		for _, c := range contexts {
			b.WriteString(strings.ReplaceAll(c, "%", string(r)))
			b.WriteByte('|')
		}
		if n++; b.Len() > 64<<10 || r > first+4000 {
			check()
		}
	}
	check()
	t.Logf("%d code points", n)
}

var all = flag.Bool("all", false, "TestCodePoints: every code point")

// signature sets a bit for each class of the pre-tokenizer r is in.
func signature(r rune) int {
	sig := 0
	for i, in := range []bool{
		unicode.Is(unicode.Lu, r), unicode.Is(unicode.Ll, r), unicode.Is(unicode.Lt, r), unicode.Is(unicode.Lm, r),
		unicode.Is(unicode.Lo, r), unicode.Is(unicode.M, r), unicode.Is(unicode.N, r), unicode.IsSpace(r),
	} {
		if in {
			sig |= 1 << i
		}
	}
	return sig
}

func FuzzCount(f *testing.F) {
	for _, s := range []string{"Hello, world", "  \n \n x", "日本語", "'LL'd", "a\xffb", "\u0301\u0301A"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := referenceRanks(t, s)
		if got := ranks(s); !slices.Equal(got, want) {
			t.Fatalf("%q: got %v, want %v", s, got, want)
		}
	})
}

func TestParseVocabRefusesDamage(t *testing.T) {
	for name, data := range map[string]string{
		"empty":     "",
		"magic":     "x" + o200k[1:],
		"truncated": o200k[:len(o200k)-1],
		"header":    o200k[:len(magic)+4],
	} {
		if parseVocab(data) != nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

func BenchmarkCount(b *testing.B) {
	in, _ := lab.ParseInstructions("ascii:8000")
	text, _ := in.For(lab.ReplyInitialize)
	b.SetBytes(int64(len(text.Text)))
	for b.Loop() {
		count(text.Text)
	}
}

// TestCountRemembers: a long text counted again gets the same count from
// memory, a text that differs (a few words added) is counted afresh, and no more
// than memoSize texts are kept.
func TestCountRemembers(t *testing.T) {
	in, _ := lab.ParseInstructions("ascii:8000")
	text, _ := in.For(lab.ReplyInitialize)
	long := text.Text
	want := count(long)
	if got := Count(long); got != want {
		t.Fatalf("Count = %d, count = %d", got, want)
	}
	if n, ok := memo.get(long); !ok || n != want {
		t.Fatalf("memo of a %d-byte text: %d, %v; want %d, true", len(long), n, ok, want)
	}
	if got := Count(long); got != want {
		t.Fatalf("Count again = %d, want %d", got, want)
	}
	other := long + " and a few words more"
	if got, w := Count(other), count(other); got != w || got == want {
		t.Fatalf("Count of a changed text = %d, want %d (not %d)", got, w, want)
	}
	short := "short text"
	Count(short)
	if _, ok := memo.get(short); ok {
		t.Errorf("a %d-byte text was remembered", len(short))
	}
	for i := range memoSize + 5 {
		s := fmt.Sprintf("%d %s", i, long)
		if got, w := Count(s), count(s); got != w {
			t.Fatalf("text %d: Count = %d, count = %d", i, got, w)
		}
	}
	memo.mu.Lock()
	n, o := len(memo.n), len(memo.order)
	memo.mu.Unlock()
	if n != memoSize || o != memoSize {
		t.Errorf("memo holds %d texts (%d in order), want %d", n, o, memoSize)
	}
	if _, ok := memo.get(long); ok {
		t.Error("the oldest text was not let go")
	}
}

// BenchmarkLoad is what the first count pays beyond the next: parsing the
// embedded vocabulary's header. The reference builds a 200,000-entry map
// (BenchmarkReferenceLoad).
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if parseVocab(o200k) == nil {
			b.Fatal("no vocabulary")
		}
	}
}

func BenchmarkReferenceLoad(b *testing.B) {
	for b.Loop() {
		c, err := tiktoken.Get(tiktoken.O200kBase)
		if err != nil {
			b.Fatal(err)
		}
		c.Count("x") // the vocabulary is built once per process; this times the rest
	}
}

func BenchmarkReferenceCount(b *testing.B) {
	in, _ := lab.ParseInstructions("ascii:8000")
	text, _ := in.For(lab.ReplyInitialize)
	c := reference(b)
	b.SetBytes(int64(len(text.Text)))
	for b.Loop() {
		c.Count(text.Text)
	}
}
