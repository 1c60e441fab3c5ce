package live_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestTrim(t *testing.T) {
	const doc = "# Coach\nBe blunt.\n\n## Style\nShort lines.\n\n## Examples\nDo one hard thing."
	tests := []struct {
		name   string
		text   string
		budget int
		want   string
	}{
		{"fits", doc, len(doc), doc},
		{"cut before a heading", doc, len("# Coach\nBe blunt.\n\n## Style\nShort lines.\n\n## Ex"), "# Coach\nBe blunt.\n\n## Style\nShort lines."},
		{"boundary exactly at budget", doc, len("# Coach\nBe blunt."), "# Coach\nBe blunt."},
		{"blank line is a boundary", "one\ntwo\n\nthree\nfour", 12, "one\ntwo"},
		{"no section fits: last line", "one line\nanother line", 12, "one line"},
		{"no line fits: hard cut", "abcdefghij", 4, "abcd"},
		{"runes, not bytes", "héllo wörld", 5, "héllo"},
		{"only blank lines before the cut: hard cut", "\n\nabcdef", 4, "\n\nab"},
		{"zero budget", doc, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, live.Trim(tt.text, tt.budget)); diff != "" {
				t.Errorf("Trim(%q, %d) mismatch (-want +got):\n%s", tt.text, tt.budget, diff)
			}
		})
	}
}

func FuzzTrim(f *testing.F) {
	f.Add("# A\nb\n\n# C\nd", 5)
	f.Add("héllo\n\nwörld", 3)
	f.Fuzz(func(t *testing.T, text string, budget int) {
		if !utf8.ValidString(text) || budget < 0 || budget > 1<<16 {
			t.Skip()
		}
		got := live.Trim(text, budget)
		if !strings.HasPrefix(text, got) {
			t.Fatalf("Trim(%q, %d) = %q, not a head of the text", text, budget, got)
		}
		if n := utf8.RuneCountInString(got); n > budget {
			t.Fatalf("Trim(%q, %d) = %q, %d characters", text, budget, got, n)
		}
		if utf8.RuneCountInString(text) <= budget && got != text {
			t.Fatalf("Trim(%q, %d) = %q, changed text within budget", text, budget, got)
		}
	})
}

// Over-budget text is reported; with Trim it is also cut at a section.
func TestBudget(t *testing.T) {
	const text = "Be blunt.\n\nMore detail that a client would cut."
	for _, trim := range []bool{false, true} {
		var reported []error
		s := mcp.NewServer(impl, nil)
		live.Install(s, func(context.Context, live.Conn) (string, error) { return text, nil }, &live.Options{
			Budget: 20,
			Trim:   trim,
			Report: func(c live.Conn, err error) { reported = append(reported, err) },
		})
		got, _ := connectMemory(t, s, legacyVersion)
		want := text
		if trim {
			want = "Be blunt."
		}
		if got != want {
			t.Errorf("trim=%v: instructions = %q, want %q", trim, got, want)
		}
		if len(reported) != 1 || !errors.Is(reported[0], live.ErrOverBudget) {
			t.Errorf("trim=%v: reported %v, want one %v", trim, reported, live.ErrOverBudget)
		}
	}
}
