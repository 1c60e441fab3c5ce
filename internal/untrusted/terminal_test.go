package untrusted

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ name, in, text, line string }{
		{"plain", "Use the tools.", "Use the tools.", "Use the tools."},
		{"lines and tabs", "a\n\tb\r\nc", "a\n\tb\r\nc", `a\n\tb\r\nc`},
		{"lone CR rewrites the line", "ok\rFAKE", `ok\rFAKE`, `ok\rFAKE`},
		{"CSI colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`, `\x1b[31mred\x1b[0m`},
		{"OSC title", "\x1b]0;pwned\x07x", `\x1b]0;pwned\x07x`, `\x1b]0;pwned\x07x`},
		{"C1 CSI", "a\u009b2Jb", `a\u009b2Jb`, `a\u009b2Jb`},
		{"NUL, backspace and DEL", "a\x00\x08\x7f", `a\x00\x08\x7f`, `a\x00\x08\x7f`},
		{"invalid UTF-8", "a\xff\x9bb", `a\xff\x9bb`, `a\xff\x9bb`},
		{"zero-width", "ig\u200bnore", `ig\u200bnore`, `ig\u200bnore`},
		{"bidi override", "abc\u202eevil\u202c", `abc\u202eevil\u202c`, `abc\u202eevil\u202c`},
		{"tags", "hi\U000E0041\U000E0042", `hi\U000e0041\U000e0042`, `hi\U000e0041\U000e0042`},
		{"line separator", "a\u2028b", `a\u2028b`, `a\u2028b`},
		{"Japanese and emoji stay", "日本語 ❤️ é 1️⃣", "日本語 ❤️ é 1️⃣", "日本語 ❤️ é 1️⃣"},
		{"variation selectors hide", "a\ufe01\ufe0fb❤\ufe0f\ufe0f\U000e0100", `a\ufe01\ufe0fb❤\ufe0f\ufe0f\U000e0100`, `a\ufe01\ufe0fb❤\ufe0f\ufe0f\U000e0100`},
		{"selector after a letter", "x\ufe0f", `x\ufe0f`, `x\ufe0f`},
		{"workflow command at a line start", "::add-mask::x\n \u3000::stop-commands::t\nok :: fine", "\\x3a:add-mask::x\n \u3000\\x3a:stop-commands::t\nok :: fine", `\x3a:add-mask::x\n 　::stop-commands::t\nok :: fine`},
		{"old workflow command anywhere", "see ##[add-mask]x and ###[", `see #\x23[add-mask]x and ##\x23[`, `see #\x23[add-mask]x and ##\x23[`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Escape(tc.in); got != tc.text {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.text)
			}
			if got := EscapeLine(tc.in); got != tc.line {
				t.Errorf("EscapeLine(%q) = %q, want %q", tc.in, got, tc.line)
			}
		})
	}
}

func TestInvisible(t *testing.T) {
	in := "Hi\u200b\u200c there\U000E0069\U000E0067\U000E006E\u202e!\u00ad ❤️x\ufe00\ufe0f"
	want := []Finding{
		{Kind: KindZeroWidth, Offset: 2, Index: 2, Count: 2, Runes: "U+200B U+200C"},
		{Kind: KindTag, Offset: 14, Index: 10, Count: 3, Runes: "U+E0069 U+E0067 U+E006E", Decoded: "ign"},
		{Kind: KindBidi, Offset: 26, Index: 13, Count: 1, Runes: "U+202E"},
		{Kind: KindFormat, Offset: 30, Index: 15, Count: 1, Runes: "U+00AD"},
		{Kind: KindVariation, Offset: 40, Index: 20, Count: 2, Runes: "U+FE00 U+FE0F"},
	}
	got := Invisible(in)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Invisible mismatch (-want +got):\n%s", diff)
	}
	if !HasInvisible(in) || HasInvisible("日本語 plain ❤️") {
		t.Errorf("HasInvisible disagrees with Invisible")
	}
	if got := Invisible("plain text, 日本語"); got != nil {
		t.Errorf("Invisible(clean) = %v, want none", got)
	}
	if s := want[1].String(); !strings.Contains(s, `spelling "ign"`) {
		t.Errorf("Finding.String() = %q, want the decoded tags", s)
	}
}

// FuzzEscape checks that no input gets a control character, an invisible
// character, invalid UTF-8 or a workflow command past Escape, and that
// EscapeLine adds no line break; and that Invisible finds exactly what
// Escape had to escape.
func FuzzEscape(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		shown(t, "Escape", s, Escape(s), true)
		shown(t, "EscapeLine", s, EscapeLine(s), false)
		if Escape(Escape(s)) != Escape(s) {
			t.Fatalf("Escape is not idempotent on %q", s)
		}
		if (len(Invisible(s)) > 0) != HasInvisible(s) {
			t.Fatalf("Invisible and HasInvisible disagree on %q", s)
		}
		n := 0
		for _, f := range Invisible(s) {
			n += f.Count
			r, _ := utf8.DecodeRuneInString(s[f.Offset:])
			if f.Offset < 0 || f.Offset >= len(s) || kindAt(s, f.Offset, r) != f.Kind {
				t.Fatalf("Invisible(%q): finding %+v does not point at its kind", s, f)
			}
		}
		m := 0
		for i, r := range s {
			if kindAt(s, i, r) != "" {
				m++
			}
		}
		if n != m {
			t.Fatalf("Invisible(%q) counts %d characters, want %d", s, n, m)
		}
	})
}
