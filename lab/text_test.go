package lab

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

var markerRE = regexp.MustCompile(`\[at (\d+)\]`)

func TestGenerateLengthsAndMarkers(t *testing.T) {
	for _, lang := range Languages() {
		for _, n := range []int{MinLength, 249, 250, 1000, 2048, 4096, 20000} {
			for _, era := range Replies() {
				t.Run(fmt.Sprintf("%s/%d/%s", lang, n, era), func(t *testing.T) {
					txt, err := Generate(lang, n, era)
					if err != nil {
						t.Fatal(err)
					}
					if got := utf8.RuneCountInString(txt.Text); got != n {
						t.Fatalf("length = %d characters, want %d", got, n)
					}
					if !utf8.ValidString(txt.Text) {
						t.Fatal("text is not valid UTF-8")
					}
					if want := "BEGIN codeword: " + txt.Begin + ". "; !strings.HasPrefix(txt.Text, want) {
						t.Errorf("text does not start with %q: %.60q", want, txt.Text)
					}
					if want := " END codeword: " + txt.End + "."; !strings.HasSuffix(txt.Text, want) {
						t.Errorf("text does not end with %q", want)
					}
					runes := []rune(txt.Text)
					var found []int
					for _, m := range markerRE.FindAllStringSubmatchIndex(txt.Text, -1) {
						at := utf8.RuneCountInString(txt.Text[:m[0]])
						n, _ := strconv.Atoi(txt.Text[m[2]:m[3]])
						if n != at {
							t.Errorf("marker [at %d] stands at character %d", n, at)
						}
						if runes[at] != '[' {
							t.Errorf("character %d is %q, not '['", at, runes[at])
						}
						found = append(found, n)
					}
					if fmt.Sprint(found) != fmt.Sprint(txt.Markers) {
						t.Errorf("markers in text %v, reported %v", found, txt.Markers)
					}
					// About every markerEvery characters: none before the first
					// threshold, and no gap much wider than one interval plus a
					// sentence, except where the tail leaves no room.
					prev := 0
					for _, m := range txt.Markers {
						if m < markerEvery {
							t.Errorf("marker at %d, before %d", m, markerEvery)
						}
						if m-prev > 2*markerEvery {
							t.Errorf("markers %d and %d are %d apart", prev, m, m-prev)
						}
						prev = m
					}
					if n >= 1000 && n-prev > 2*markerEvery {
						t.Errorf("last marker at %d of %d characters", prev, n)
					}
				})
			}
		}
	}
}

func TestGenerateTooShort(t *testing.T) {
	_, err := Generate(English, MinLength-1, ReplyInitialize)
	if err == nil || !strings.Contains(err.Error(), "too short") {
		t.Fatalf("Generate(%d) error = %v, want a too-short error", MinLength-1, err)
	}
	if _, err := ParseInstructions(fmt.Sprintf("ascii:%d", MinLength-1)); err == nil {
		t.Fatal("ParseInstructions accepted a text shorter than the codeword sentences")
	}
}

func TestCodewordsStableAndDistinct(t *testing.T) {
	// Stable: these values are what earlier runs and reports refer to.
	if got, want := Codeword(English, 1000, ReplyInitialize, "begin"), Codeword(English, 1000, ReplyInitialize, "begin"); got != want {
		t.Fatalf("Codeword not deterministic: %q then %q", got, want)
	}
	seen := map[string]string{}
	for _, lang := range Languages() {
		for _, n := range []int{MinLength, 249, 250, 1000, 2048, 3000, 4096, 5000, 6000, 20000} {
			for _, era := range Replies() {
				txt, err := Generate(lang, n, era)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range []string{txt.Begin, txt.End} {
					if !regexp.MustCompile(`^[A-Z]{7}-\d{4}$`).MatchString(c) {
						t.Errorf("codeword %q is not WORD-NNNN", c)
					}
					key := fmt.Sprintf("%s/%d/%s", lang, n, era)
					if other, dup := seen[c]; dup {
						t.Errorf("codeword %s used by %s and %s", c, other, key)
					}
					seen[c] = key
				}
			}
		}
	}
}

func TestGenerateMatchesGolden(t *testing.T) {
	// A fixed text pins the generator: a change to it changes every
	// codeword and marker that recorded evidence refers to.
	txt, err := Generate(English, 300, ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	const want = "BEGIN codeword: CATBIRD-1848. The lab server tracks spare parts for a small hardware workshop. Use lookup_part when the user names a part number or asks about the stock, bin or name of one part. Part numbers look like M3-0412 or BR-6201; pass them to lookup_part exactly a END codeword: SPARROW-6553."
	if txt.Text != want {
		t.Errorf("Generate(ascii, 300, initialize) =\n%q\nwant\n%q", txt.Text, want)
	}
}

func TestParseInstructions(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    string
		present bool
		wantErr bool
	}{
		{"none", "none", false, false},
		{"ascii:1000", "ascii:1000", true, false},
		{"japanese:3000", "japanese:3000", true, false},
		{"ascii", "", false, true},
		{"ascii:-5", "", false, true},
		{"ascii:1,000", "", false, true},
		{"klingon:100", "", false, true},
		{"", "", false, true},
	} {
		in, err := ParseInstructions(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParseInstructions(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && (in.String() != tc.want || in.Present() != tc.present) {
			t.Errorf("ParseInstructions(%q) = %s (present %v), want %s (present %v)", tc.in, in, in.Present(), tc.want, tc.present)
		}
	}
}

func TestSeededTextsDiffer(t *testing.T) {
	// Two labs in one session tell their texts apart by the codewords
	// alone: same kind and length, other seed, other codewords; the text
	// between them is the same, and no seed is the unseeded text.
	plain, err := Generate(English, 1000, ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	unseeded, err := generateSeeded("", English, 1000, ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	if unseeded.Text != plain.Text {
		t.Errorf("generateSeeded with no seed = %q, want Generate's %q", unseeded.Text, plain.Text)
	}
	a, err := generateSeeded("alpha", English, 1000, ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	b, err := generateSeeded("beta", English, 1000, ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]string{}
	for name, txt := range map[string]Text{"none": plain, "alpha": a, "beta": b} {
		for _, c := range []string{txt.Begin, txt.End} {
			if prev, ok := words[c]; ok {
				t.Errorf("codeword %s of seed %s is also seed %s's", c, name, prev)
			}
			words[c] = name
		}
		if txt.Length() != 1000 {
			t.Errorf("seed %s: %d characters, want 1000", name, txt.Length())
		}
	}
	if a.Begin != seededCodeword("alpha", English, 1000, ReplyInitialize, "begin") {
		t.Errorf("seed alpha's begin codeword %s is not seededCodeword's", a.Begin)
	}
	strip := func(txt Text) string {
		return strings.ReplaceAll(strings.ReplaceAll(txt.Text, txt.Begin, "B"), txt.End, "E")
	}
	if strip(a) != strip(b) {
		t.Errorf("seeds change more than the codewords:\n%s\n%s", strip(a), strip(b))
	}
}

func TestSeedFlagReachesTexts(t *testing.T) {
	a, err := ParseArgs([]string{"-instr", "ascii:1000", "-tool-desc", "ascii:600", "-seed", "two"})
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := a.Config()
	if err != nil {
		t.Fatal(err)
	}
	txt, err := cfg.Instructions.For(ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	if want := seededCodeword("two", English, 1000, ReplyInitialize, "begin"); txt.Begin != want {
		t.Errorf("-seed two: begin codeword %s, want %s", txt.Begin, want)
	}
	if want := seededCodeword("two", English, 600, ReplyInitialize, "begin"); !strings.Contains(cfg.ToolDescription, want) {
		t.Errorf("-seed two: tool description lacks codeword %s:\n%s", want, cfg.ToolDescription)
	}
}

// TestLinesText: a lines text is the English text with a line break
// after each sentence, of exactly the length asked, its codewords at its
// start and end.
func TestLinesText(t *testing.T) {
	txt, err := Generate(Lines, 1000, ReplyInitialize)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(txt.Text, "\n")
	if n := utf8.RuneCountInString(txt.Text); n != 1000 || len(lines) < 5 {
		t.Fatalf("%d characters in %d lines, want 1,000 in several", n, len(lines))
	}
	if !strings.HasPrefix(lines[0], "BEGIN codeword: "+txt.Begin) || !strings.HasSuffix(lines[0], "workshop.") ||
		!strings.Contains(txt.Text, txt.End) {
		t.Errorf("first line %q, end codeword %s", lines[0], txt.End)
	}
}
