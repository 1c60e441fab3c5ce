package lab

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Language selects the filler of a generated text. Besides English and
// Japanese (inside the Basic Multilingual Plane) there are texts that tell
// the units of a cap apart: emoji and CJK Extension B characters lie
// outside the BMP (one code point, two UTF-16 units, four UTF-8 bytes), and
// combining text puts marks after base letters (two code points, one
// grapheme). Every length is in code points.
type Language string

// The languages of generated texts.
const (
	English   Language = "ascii"
	Japanese  Language = "japanese"
	Emoji     Language = "emoji"
	CJKExtB   Language = "cjkb"
	Combining Language = "combining"
	// Lines is English with a line break after each sentence: how clients
	// treat a server text of several lines (Codex CLI 0.171.0 keeps the
	// first).
	Lines Language = "lines"
)

// languages is the one list of generated text kinds: the -instr prefix,
// the filler, and the separator between filler sentences.
var languages = []struct {
	lang   Language
	filler func() []string
	sep    string
}{
	{English, func() []string { return englishFiller }, " "},
	{Japanese, func() []string { return japaneseFiller }, ""},
	{Emoji, func() []string { return emojiFiller }, " "},
	{CJKExtB, func() []string { return cjkExtBFiller }, ""},
	{Combining, combiningFiller, " "},
	{Lines, func() []string { return englishFiller }, "\n"},
}

// Languages lists the kinds of generated text, in the order of -instr's
// help.
func Languages() []Language {
	out := make([]Language, len(languages))
	for i, l := range languages {
		out[i] = l.lang
	}
	return out
}

// filler returns the sentences and separator of lang; ok is false for an
// unknown language.
func filler(lang Language) ([]string, string, bool) {
	for _, l := range languages {
		if l.lang == lang {
			return l.filler(), l.sep, true
		}
	}
	return nil, "", false
}

// languageList is "ascii, japanese, ... or combining", for errors.
func languageList() string {
	var b strings.Builder
	for i, l := range languages {
		switch {
		case i == len(languages)-1:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString(string(l.lang))
	}
	return b.String()
}

// markerEvery is the approximate distance in characters between two
// position markers.
const markerEvery = 250

// A Text is an instructions text and what it carries.
type Text struct {
	Text     string // the instructions, exactly Length characters (runes)
	Begin    string // the codeword of the first sentence, "" for a user's own text
	End      string // the codeword of the last sentence
	Markers  []int  // the rune offset of each "[at N]" marker's '['; N equals it
	Language Language
	Reply    Reply // the reply it is served in
}

// Length reports the length of the text in characters (runes).
func (t Text) Length() int { return utf8.RuneCountInString(t.Text) }

// codewordWords are seven-letter birds, so that the two codeword sentences
// have one length and every text has the same minimum.
var codewordWords = [...]string{
	"WAXWING", "TANAGER", "BITTERN", "GADWALL", "KESTREL", "PINTAIL", "BLUEJAY", "OSTRICH",
	"PELICAN", "PENGUIN", "PEAFOWL", "SPARROW", "BUNTING", "KINGLET", "LAPWING", "MOORHEN",
	"SWALLOW", "WARBLER", "WRYNECK", "CATBIRD", "GOSHAWK", "HOATZIN", "JACKDAW", "MALLARD",
	"REDPOLL", "SKYLARK", "ANHINGA", "COWBIRD", "MINIVET", "QUETZAL", "TINAMOU", "VULTURE",
}

// Codeword derives the codeword at one end ("begin" or "end") of the text of
// the given language and length served in reply r. It is deterministic, so
// a run can be checked against it later without the server.
func Codeword(lang Language, n int, r Reply, end string) string {
	return seededCodeword("", lang, n, r, end)
}

// seededCodeword is Codeword of a lab started with -seed: the seed is mixed
// into the hash, so several labs in one run, each with its own seed, serve
// texts whose codewords tell them apart. The empty seed is Codeword.
func seededCodeword(seed string, lang Language, n int, r Reply, end string) string {
	h := fnv.New64a()
	if seed != "" {
		fmt.Fprintf(h, "%s/", seed)
	}
	fmt.Fprintf(h, "%s/%d/%s/%s", lang, n, r, end)
	sum := h.Sum64()
	word := codewordWords[sum%uint64(len(codewordWords))]
	return fmt.Sprintf("%s-%04d", word, (sum/uint64(len(codewordWords)))%10000)
}

func beginSentence(code string) string { return "BEGIN codeword: " + code + ". " }
func endSentence(code string) string   { return " END codeword: " + code + "." }

// MinLength is the shortest text Generate makes: the two codeword sentences.
var MinLength = utf8.RuneCountInString(beginSentence("WAXWING-0000") + endSentence("WAXWING-0000"))

// Generate makes the instructions text of language lang that is exactly n
// characters long, served in reply r.
func Generate(lang Language, n int, r Reply) (Text, error) {
	return generateSeeded("", lang, n, r)
}

// generateSeeded is Generate with the codewords of seededCodeword.
func generateSeeded(seed string, lang Language, n int, r Reply) (Text, error) {
	filler, sep, ok := filler(lang)
	if !ok {
		return Text{}, fmt.Errorf("unknown language %q (want %s)", lang, languageList())
	}
	if r != ReplyInitialize && r != ReplyDiscover {
		return Text{}, fmt.Errorf("unknown era %q (want %q or %q)", r, ReplyInitialize, ReplyDiscover)
	}
	if n < MinLength {
		return Text{}, fmt.Errorf("%s text of %d characters is too short: the two codeword sentences alone take %d", lang, n, MinLength)
	}
	t := Text{
		Begin:    seededCodeword(seed, lang, n, r, "begin"),
		End:      seededCodeword(seed, lang, n, r, "end"),
		Language: lang,
		Reply:    r,
	}
	head, tail := beginSentence(t.Begin), endSentence(t.End)
	bodyEnd := n - utf8.RuneCountInString(tail) // rune offset where the tail starts

	var b strings.Builder
	b.WriteString(head)
	length := utf8.RuneCountInString(head)
	next := markerEvery
	for i := 0; length < bodyEnd; {
		if length >= next {
			marker := "[at " + strconv.Itoa(length) + "]" + sep
			if m := utf8.RuneCountInString(marker); length+m <= bodyEnd {
				t.Markers = append(t.Markers, length)
				b.WriteString(marker)
				length += m
				next += markerEvery
				continue
			}
			next = bodyEnd // no room for a whole marker: fill to the end
		}
		s := filler[i%len(filler)] + sep
		i++
		b.WriteString(s)
		length += utf8.RuneCountInString(s)
	}
	body := b.String()
	if length > bodyEnd { // cut the last sentence at the rune boundary
		body = string([]rune(body)[:bodyEnd])
	}
	t.Text = body + tail
	return t, nil
}

// englishFiller describes the inventory and says when to use each tool.
var englishFiller = []string{
	"The lab server tracks spare parts for a small hardware workshop.",
	"Use lookup_part when the user names a part number or asks about the stock, bin or name of one part.",
	"Part numbers look like M3-0412 or BR-6201; pass them to lookup_part exactly as the user wrote them.",
	"Use list_bins when the user asks where things are kept or what a storage bin holds.",
	"Bins are named by aisle and shelf, from A1 to C3, and each holds one kind of part.",
	"Use lab_ping only to check that the lab server is reachable; it changes nothing.",
	"Stock counts are whole units, and a count of zero means the part must be reordered.",
	"Never guess a stock count: if lookup_part does not know a part, say that it is unknown.",
}

// japaneseFiller is the same inventory in Japanese.
var japaneseFiller = []string{
	"ラボサーバーは小さな金物工房の予備部品を管理しています。",
	"ユーザーが部品番号を挙げたとき、または部品の在庫や棚や名前を尋ねたときは lookup_part を使ってください。",
	"部品番号は M3-0412 や BR-6201 のような形で、ユーザーが書いたとおりに lookup_part へ渡してください。",
	"物の置き場所や棚の中身を尋ねられたときは list_bins を使ってください。",
	"棚は通路と段で A1 から C3 まで名付けられ、それぞれ一種類の部品を収めています。",
	"lab_ping はラボサーバーに届くかを確かめるためだけに使い、何も変更しません。",
	"在庫数は個数で数え、在庫がゼロの部品は再注文が必要です。",
	"在庫数を推測してはいけません。lookup_part が知らない部品なら、不明だと伝えてください。",
}

// emojiFiller is the inventory told mostly in emoji outside the BMP, each
// one code point (no variation selectors or joiners), so that code points,
// UTF-16 units and bytes all differ.
var emojiFiller = []string{
	"🔩🔧📦🧰🔩🔧📦🧰 lab parts 🔩🔧📦🧰🔩🔧📦🧰.",
	"🔍📦🔢📋🔍📦🔢📋 lookup_part 🔍📦🔢📋🔍📦🔢📋.",
	"📍🧲📦🔌📍🧲📦🔌 list_bins 📍🧲📦🔌📍🧲📦🔌.",
	"🔢🔩📋💡🔢🔩📋💡 M3-0412 🔢🔩📋💡📏📐🧪🧯.",
	"🚫🔢📦🔍🚫🔢📦🔍 never guess 🚫🔢📦🔍🚫🔢📦🔍.",
	"📡🔔🪛🧲📡🔔🪛🧲 lab_ping 📡🔔🪛🧲📡🔔🪛🧲.",
}

// cjkExtBFiller is Japanese with many CJK Extension B characters (outside
// the BMP) among the common ones.
var cjkExtBFiller = []string{
	"\U00029E3D\U00020BB7\U0002123D\U00020B9F\U0002000B\U0002313Eの部品は棚\U0002A6B2\U00020000\U00020001\U00020002にあります。",
	"\U00020BB7\U00029E3D\U0002123D\U00020003\U00020004の在庫は lookup_part で\U00020005\U00020006\U00020007。",
	"棚\U0002A6B2\U0002000B\U0002313E\U00020008\U00020009の中身は list_bins で\U0002000A\U0002000C\U0002000D。",
	"\U00020B9F\U00029E3D\U0002000E\U0002000F\U00020010の在庫数を推測しない\U00020011\U00020012\U00020013\U00020014。",
}

// combiningFiller is the English inventory with a combining acute accent
// (U+0301) after every vowel: two code points for one grapheme.
func combiningFiller() []string {
	out := make([]string, len(englishFiller))
	for i, s := range englishFiller {
		var b strings.Builder
		for _, r := range s {
			b.WriteRune(r)
			if strings.ContainsRune("aeiouAEIOU", r) {
				b.WriteRune('\u0301')
			}
		}
		out[i] = b.String()
	}
	return out
}
