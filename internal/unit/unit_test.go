package unit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/lab"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want map[Unit]int
	}{
		{"abc", map[Unit]int{CodePoint: 3, UTF16: 3, Byte: 3, Grapheme: 3}},
		{"日本", map[Unit]int{CodePoint: 2, UTF16: 2, Byte: 6, Grapheme: 2}},
		{"🔩x", map[Unit]int{CodePoint: 2, UTF16: 3, Byte: 5, Grapheme: 2}},
		{"\U00020BB7", map[Unit]int{CodePoint: 1, UTF16: 2, Byte: 4, Grapheme: 1}},
		{"e\u0301a\u0301", map[Unit]int{CodePoint: 4, UTF16: 4, Byte: 6, Grapheme: 2}},
		{"👩\u200d🔧!", map[Unit]int{CodePoint: 4, UTF16: 6, Byte: 12, Grapheme: 2}},
	} {
		got := map[Unit]int{}
		for u := range tc.want {
			got[u] = u.Count(tc.s)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Count(%q) mismatch (-want +got):\n%s", tc.s, diff)
		}
	}
}

func TestPrefixNeverSplits(t *testing.T) {
	for _, tc := range []struct {
		u    Unit
		s    string
		n    int
		want string
	}{
		{UTF16, "a🔩b", 2, "a"},
		{UTF16, "a🔩b", 3, "a🔩"},
		{Byte, "a日", 3, "a"},
		{Byte, "a日", 4, "a日"},
		{Grapheme, "e\u0301a\u0301", 1, "e\u0301"},
		{CodePoint, "e\u0301a\u0301", 1, "e"},
		{CodePoint, "abc", 0, ""},
		{CodePoint, "abc", 9, "abc"},
	} {
		if got := tc.u.Prefix(tc.s, tc.n); got != tc.want {
			t.Errorf("%s.Prefix(%q, %d) = %q, want %q", tc.u, tc.s, tc.n, got, tc.want)
		}
	}
	s := "The lab server tracks spare parts for a small hardware workshop."
	p := Token.Prefix(s, 5)
	if Token.Count(p) > 5 || Token.Count(s[:len(p)+1]) <= 5 {
		t.Errorf("Token.Prefix(%q, 5) = %q (%d tokens): not the longest fit", s, p, Token.Count(p))
	}
}

// texts are the lab's texts of every kind at 6,000 code points, longer
// than the cap in every unit.
func texts(t *testing.T) []string {
	var out []string
	for _, lang := range lab.Languages() {
		txt, err := lab.Generate(lang, 6000, lab.ReplyInitialize)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, txt.Text)
	}
	return out
}

// TestInferEachUnit cuts the lab's texts the way a client counting each
// unit would and checks that Infer names that unit alone, with its cap.
// TestClip: a text within n is itself; a longer one is its first n
// characters and "…", never a split character.
func TestClip(t *testing.T) {
	for _, tt := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""},
		{"abc", 3, "abc"},
		{"abcd", 3, "abc…"},
		{"héllo wörld", 4, "héll…"},
		{"ab", 0, "…"},
	} {
		if got := CodePoint.Clip(tt.s, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestInferEachUnit(t *testing.T) {
	for _, u := range []Unit{CodePoint, UTF16, Byte, Grapheme} {
		t.Run(string(u), func(t *testing.T) {
			var samples []Sample
			for _, s := range texts(t) {
				samples = append(samples, Sample{Text: s, Kept: u.Prefix(s, 4096)})
			}
			f := Infer(samples)
			if f.Decided() != u || f.Caps[u] != 4096 {
				t.Errorf("Infer = %v (caps %v), want %s at 4096", f.Units, f.Caps, u)
			}
		})
	}
}

// TestInferLoneSurrogate: a client that cuts UTF-16 units in the middle of
// a pair sends a lone surrogate, which arrives as U+FFFD; the common prefix
// then ends before the emoji, and UTF-16 still fits.
func TestInferLoneSurrogate(t *testing.T) {
	var samples []Sample
	for _, s := range texts(t) {
		k := UTF16.Prefix(s, 4095)
		if UTF16.Count(UTF16.Prefix(s, 4096)) == 4096 {
			k = UTF16.Prefix(s, 4096)
		}
		samples = append(samples, Sample{Text: s, Kept: k})
	}
	if f := Infer(samples); f.Decided() != UTF16 {
		t.Errorf("Infer = %v, want utf16", f.Units)
	}
}

func TestInferUndecided(t *testing.T) {
	ascii, err := lab.Generate(lab.English, 6000, lab.ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	f := Infer([]Sample{{Text: ascii.Text, Kept: ascii.Text[:4096]}})
	if f.Decided() != "" || len(f.Units) < 3 {
		t.Errorf("ASCII only: Infer = %v, want code points, UTF-16 units and bytes undecided", f.Units)
	}
	if f := Infer([]Sample{{Text: "abc", Kept: "abc"}}); f.Cut != 0 || len(f.Units) != 0 {
		t.Errorf("nothing cut: Infer = %+v, want no units", f)
	}
	// A text kept whole that is longer than the cap in code points rules
	// code points out.
	ts := texts(t)
	samples := []Sample{}
	for _, s := range ts {
		samples = append(samples, Sample{Text: s, Kept: UTF16.Prefix(s, 4096)})
	}
	samples = append(samples, Sample{Text: ts[0][:5000], Kept: ts[0][:5000]})
	if f := Infer(samples); len(f.Units) != 0 {
		t.Errorf("contradicting samples: Infer = %v, want no unit", f.Units)
	}
}

// TestInferSingleCut: one emoji text cut by a client that counts UTF-16
// units (3,000 code points of "🚀x", 4,096 units kept, one short of an
// emoji pair) fits several units by its cut alone. The client's log names
// the unit (its cap is what was kept in UTF-16 units, its length the
// text's); without a log, UTF-16 is the one unit where a round number is a
// cap that keeps that cut. An ASCII cut is round in every unit and stays
// undecided.
func TestInferSingleCut(t *testing.T) {
	text := strings.Repeat("🚀x", 1500)
	kept := UTF16.Prefix(text, 4096)
	for _, tc := range []struct {
		name string
		s    Sample
		by   string
	}{
		{"log", Sample{Text: text, Kept: kept, Said: &Said{From: 4500, To: 4096}}, ByLog},
		{"log of another length", Sample{Text: text, Kept: kept, Said: &Said{From: 4472, To: 4096}}, ByLog},
		{"round", Sample{Text: text, Kept: kept}, ByRound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := Infer([]Sample{tc.s})
			if f.Decided() != UTF16 || f.Caps[UTF16] != 4096 || f.By != tc.by {
				t.Errorf("Infer = %v, caps %v, by %q; want utf16 at 4096 by %q", f.Units, f.Caps, f.By, tc.by)
			}
			if !strings.Contains(f.String(), "UTF-16 units, by "+tc.by+": a cap of 4096") {
				t.Errorf("String = %q", f.String())
			}
		})
	}
	// A log that names a cap no unit kept decides nothing; the cut is
	// then read as it is round.
	if f := Infer([]Sample{{Text: text, Kept: kept, Said: &Said{From: 9, To: 2000}}}); f.By != ByRound {
		t.Errorf("a log of a cap nothing kept: by %q, want %q", f.By, ByRound)
	}
	ascii, err := lab.Generate(lab.English, 6000, lab.ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	if f := Infer([]Sample{{Text: ascii.Text, Kept: ascii.Text[:4096]}}); f.Decided() != "" || f.By != "" {
		t.Errorf("an ASCII cut round in every unit: Infer = %v by %q, want undecided", f.Units, f.By)
	}
	// A cut that is round in no unit stays undecided too.
	if f := Infer([]Sample{{Text: text, Kept: UTF16.Prefix(text, 4001)}}); f.Decided() != "" {
		t.Errorf("a cut round in no unit: Infer = %v by %q, want undecided", f.Units, f.By)
	}
}

// TestCapOf: the unit of one cut, decided in one place. A client whose
// plain runs decide UTF-16 units at 4,096 (Claude Code) cuts an ASCII text
// at 4,096 under a setting it ignored: that cut is its default's, in
// UTF-16 units, though in ASCII every unit counts the same. A cut
// elsewhere is in the unit it decides alone (the client's log), else in
// code points; a text kept whole has no cap.
func TestCapOf(t *testing.T) {
	ascii := strings.Repeat("abcdefghij", 2000)
	emoji := strings.Repeat("🚀x", 1500)
	claude := Infer([]Sample{{Text: emoji, Kept: UTF16.Prefix(emoji, 4096), Said: &Said{From: UTF16.Count(emoji), To: 4096}}})
	if claude.Decided() != UTF16 || claude.Caps[UTF16] != 4096 {
		t.Fatalf("the plain runs decide %q at %d, want utf16 at 4096", claude.Decided(), claude.Caps[UTF16])
	}
	type got struct {
		U   Unit
		Cap int
		OK  bool
	}
	for _, tc := range []struct {
		name string
		f    Finding
		s    Sample
		want got
	}{
		{"the default cut, under a setting", claude, Sample{Text: ascii, Kept: ascii[:4096], Said: &Said{From: 20000, To: 4096}}, got{UTF16, 4096, true}},
		{"the default cut, no log", claude, Sample{Text: ascii, Kept: ascii[:4096]}, got{UTF16, 4096, true}},
		{"another cut, ASCII", claude, Sample{Text: ascii, Kept: ascii[:10000]}, got{CodePoint, 10000, true}},
		{"another cut, the log tells", Finding{}, Sample{Text: emoji, Kept: UTF16.Prefix(emoji, 2000), Said: &Said{From: 4500, To: 2000}}, got{UTF16, 2000, true}},
		{"nothing known", Finding{}, Sample{Text: ascii, Kept: ascii[:4096]}, got{CodePoint, 4096, true}},
		{"kept whole", claude, Sample{Text: "abc", Kept: "abc"}, got{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g got
			g.U, g.Cap, g.OK = tc.f.CapOf(tc.s)
			if diff := cmp.Diff(tc.want, g); diff != "" {
				t.Errorf("CapOf mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
