package assess

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/tokens"
)

func TestSections(t *testing.T) {
	tests := []struct {
		name, text string
		want       []Section
	}{
		{"one", "Use the tools.", []Section{{"Use the tools.", 0, 14}}},
		{"headings", "intro\n# Tools\nuse a\n## Limits\nten\n",
			[]Section{{"intro", 0, 6}, {"# Tools", 6, 20}, {"## Limits", 20, 34}}},
		{"heading first", "# A\nx\n# B\ny", []Section{{"# A", 0, 6}, {"# B", 6, 11}}},
		{"not a heading", "#hashtag\n####### seven\ntext", []Section{{"#hashtag", 0, 27}}},
		{"paragraphs", "First part.\n\nSecond part.\n", []Section{{"First part.", 0, 13}, {"Second part.", 13, 26}}},
		{"japanese", "在庫\n\n部品", []Section{{"在庫", 0, 4}, {"部品", 4, 6}}},
		{"empty", "", []Section{{"", 0, 0}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Sections(tt.text)); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestLossAt(t *testing.T) {
	secs := []Section{{"a", 0, 10}, {"b", 10, 20}, {"c", 20, 30}}
	tests := []struct {
		k    int
		want Loss
	}{
		{15, Loss{Whole: []Section{{"c", 20, 30}}, Cut: &Section{"b", 10, 20}, CutLost: 5}},
		{20, Loss{Whole: []Section{{"c", 20, 30}}}},
		{30, Loss{}},
		{0, Loss{Whole: secs}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, lossAt(secs, tt.k)); diff != "" {
			t.Errorf("lossAt(%d) mismatch (-want +got):\n%s", tt.k, diff)
		}
	}
}

// TestTokens shows why the language must be visible: the same number of
// characters costs about three times as many tokens in Japanese.
func TestTokens(t *testing.T) {
	en := tokens.Count("Use lookup_part when the user names a part number or asks about the stock.")
	ja := tokens.Count("ユーザーが部品番号を挙げたときは lookup_part を使ってください。")
	if en <= 0 || ja <= 0 {
		t.Fatalf("tokens %d, %d", en, ja)
	}
	enRate := 75.0 / float64(en)
	jaRate := float64(len([]rune("ユーザーが部品番号を挙げたときは lookup_part を使ってください。"))) / float64(ja)
	if enRate < 2*jaRate {
		t.Errorf("chars/token English %.2f, Japanese %.2f: want English at least twice Japanese", enRate, jaRate)
	}
}

// FuzzSections: a server's text splits into sections that tile it, and a
// cut anywhere loses exactly the characters after it.
func FuzzSections(f *testing.F) {
	f.Add("# A\ntext\n## B\nmore\n", 5)
	f.Add("one\n\ntwo\n\n\nthree", 4)
	f.Add("在庫\n# 見出し\n部品", 3)
	f.Fuzz(func(t *testing.T, text string, k int) {
		secs := Sections(text)
		n := utf8.RuneCountInString(text)
		if secs[0].Start != 0 || secs[len(secs)-1].End != n {
			t.Fatalf("sections %v do not cover 0..%d", secs, n)
		}
		for i := 1; i < len(secs); i++ {
			if secs[i].Start != secs[i-1].End {
				t.Fatalf("sections %v leave a gap", secs)
			}
		}
		if k < 0 || k > n {
			return
		}
		l := lossAt(secs, k)
		lost := l.CutLost
		for _, s := range l.Whole {
			lost += s.Chars()
		}
		if lost != n-k {
			t.Fatalf("cut at %d of %d loses %d, want %d", k, n, lost, n-k)
		}
	})
}
