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
		{"Japanese and emoji stay", "日本語 ❤️ é", "日本語 ❤️ é", "日本語 ❤️ é"},
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
	in := "Hi\u200b\u200c there\U000E0069\U000E0067\U000E006E\u202e!\u00ad"
	want := []Finding{
		{Kind: KindZeroWidth, Offset: 2, Index: 2, Count: 2, Runes: "U+200B U+200C"},
		{Kind: KindTag, Offset: 14, Index: 10, Count: 3, Runes: "U+E0069 U+E0067 U+E006E", Decoded: "ign"},
		{Kind: KindBidi, Offset: 26, Index: 13, Count: 1, Runes: "U+202E"},
		{Kind: KindFormat, Offset: 30, Index: 15, Count: 1, Runes: "U+00AD"},
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
// character or invalid UTF-8 past Escape, and that EscapeLine adds no line
// break; and that Invisible finds exactly what Escape had to escape.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[2J\x1b]0;t\x07", "a\u202eb\U000E0041", "\xff\xfe", "a\r\nb\rc", "\u009b\u2028"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range []bool{false, true} {
			out := escape(s, line)
			if !utf8.ValidString(out) {
				t.Fatalf("escape(%q, %v) = %q: invalid UTF-8", s, line, out)
			}
			for i, r := range out {
				bad := (r < 0x20 && r != '\n' && r != '\t' && r != '\r') || r == 0x7f || isControl(r) || kindOf(r) != ""
				if line && (r == '\n' || r == '\t' || r == '\r') {
					bad = true
				}
				if r == '\r' && !line && !strings.HasPrefix(out[i:], "\r\n") {
					bad = true
				}
				if bad {
					t.Fatalf("escape(%q, %v) = %q: %U at %d", s, line, out, r, i)
				}
			}
		}
		if (len(Invisible(s)) > 0) != HasInvisible(s) {
			t.Fatalf("Invisible and HasInvisible disagree on %q", s)
		}
		n := 0
		for _, f := range Invisible(s) {
			n += f.Count
			if f.Offset < 0 || f.Offset >= len(s) || kindOf([]rune(s[f.Offset:])[0]) != f.Kind {
				t.Fatalf("Invisible(%q): finding %+v does not point at its kind", s, f)
			}
		}
		m := 0
		for _, r := range s {
			if kindOf(r) != "" {
				m++
			}
		}
		if n != m {
			t.Fatalf("Invisible(%q) counts %d characters, want %d", s, n, m)
		}
	})
}
