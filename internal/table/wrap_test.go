package table

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHang(t *testing.T) {
	tests := []struct {
		name, prefix, text string
		width              int
		want               string
	}{
		{"fits", "  warn  ", "short", 40, "  warn  short\n"},
		{"wraps under the prefix", "  warn  code  ", "one two three four five six seven", 30,
			"  warn  code  one two three\n" +
				"              four five six\n" +
				"              seven\n"},
		{"keeps line breaks", "> ", "first line\nsecond", 40, "> first line\n  second\n"},
		{"keeps double spaces inside a line", "", "a  b", 40, "a  b\n"},
		{"drops the space at a break", "", "aaaaaaaaaa bbbbbbbbbb cccccccccc", 21, "aaaaaaaaaa bbbbbbbbbb\ncccccccccc\n"},
		{"breaks a word wider than a line", "", strings.Repeat("x", 45), 20,
			strings.Repeat("x", 20) + "\n" + strings.Repeat("x", 20) + "\n" + strings.Repeat("x", 5) + "\n"},
		{"indent at most half the width", strings.Repeat("p", 15) + " ", "one two three", 20,
			"ppppppppppppppp one\n          two three\n"},
		{"wide characters take two columns", "", "日本語の テキスト です", 20, "日本語の テキスト\nです\n"},
		{"narrower than 20 is 20", "", "aaaa bbbb cccc dddd eeee", 5, "aaaa bbbb cccc dddd\neeee\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Hang(tt.prefix, tt.text, tt.width)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzHang: no line is wider than the width, and every character of the
// text but the spaces at breaks is kept, in order.
func FuzzHang(f *testing.F) {
	f.Add("  warn  ", "one two three four five six seven eight", 24)
	f.Add("", strings.Repeat("日本語", 30), 21)
	f.Add(strings.Repeat("p", 50), "a  b\nc   d", 20)
	f.Fuzz(func(t *testing.T, prefix, text string, width int) {
		if strings.ContainsAny(prefix, "\n") || width > 500 {
			return
		}
		prefix = escapeForTest(prefix)
		text = escapeForTest(text)
		out := Hang(prefix, text, width)
		limit := max(width, minWidth)
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if DisplayWidth(l) > limit {
				t.Fatalf("line %q is %d columns, over %d", l, DisplayWidth(l), limit)
			}
		}
		strip := func(s string) string { return strings.NewReplacer(" ", "", "\n", "").Replace(s) }
		if got, want := strip(out), strip(prefix+text); got != want {
			t.Fatalf("text changed: got %q, want %q", got, want)
		}
	})
}

// escapeForTest keeps what Hang is given in practice: text without
// control characters (escaped before) but for line breaks.
func escapeForTest(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r >= ' ' && r != 0x7f && !(r >= 0x80 && r < 0xa0) && r != 0xfffd {
			return r
		}
		return '?'
	}, s)
}

func TestTextWidth(t *testing.T) {
	long := Table{
		Columns: []Column{{Name: "configuration"}, {Name: "client"}, {Name: "arrived"}},
		Rows: [][]Cell{
			{{Text: "en-5000"}, {Text: "claude-code@2.1.285"}, {Text: "FAILED (2 runs): the client exited with status 1 before its first request; stderr: error: unknown option"}},
			{{Text: "ja-3000"}, {Text: "codex@0.169.0"}, {Text: "whole"}},
		},
		Notes: []string{"configuration: the matrix row (-row NAME); kept in characters (Unicode code points) of the server's text, cap in the unit the client's cut texts agree on."},
	}
	var b bytes.Buffer
	if err := TextWidth(&b, long, 60); err != nil {
		t.Fatal(err)
	}
	want := "" +
		"configuration  client               arrived\n" +
		"en-5000        claude-code@2.1.285  FAILED (2 runs): the\n" +
		"                                    client exited with\n" +
		"                                    status 1 before its\n" +
		"                                    first request; stderr:\n" +
		"                                    error: unknown option\n" +
		"ja-3000        codex@0.169.0        whole\n" +
		"\n" +
		"configuration: the matrix row (-row NAME); kept in\n" +
		"characters (Unicode code points) of the server's text, cap\n" +
		"in the unit the client's cut texts agree on.\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	b.Reset()
	if err := TextWidth(&b, long, 25); err != nil {
		t.Fatal(err)
	}
	wantRecords := "" +
		"configuration: en-5000\n" +
		"client: claude-code@2.1.2\n" +
		"        85\n" +
		"arrived: FAILED (2 runs):\n" +
		"         the client\n"
	if !strings.HasPrefix(b.String(), wantRecords) {
		t.Errorf("too narrow for columns: want records, got:\n%s", b.String())
	}
	for _, l := range strings.Split(b.String(), "\n") {
		if DisplayWidth(l) > 25 {
			t.Errorf("line over 25 columns: %q", l)
		}
	}
}

func TestWidth(t *testing.T) {
	var b bytes.Buffer
	t.Setenv("COLUMNS", "")
	if got := Width(&b); got != DefaultWidth {
		t.Errorf("no terminal: Width %d, want %d", got, DefaultWidth)
	}
	t.Setenv("COLUMNS", "132")
	if got := Width(&b); got != 132 {
		t.Errorf("COLUMNS=132: Width %d", got)
	}
	t.Setenv("COLUMNS", "wide")
	if got := Width(&b); got != DefaultWidth {
		t.Errorf("COLUMNS=wide: Width %d, want %d", got, DefaultWidth)
	}
}
