package version

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// versions is every M.m.p with each number 0 to 3.
func versions() []string {
	var vs []string
	for M := range 4 {
		for m := range 4 {
			for p := range 4 {
				vs = append(vs, fmt.Sprintf("%d.%d.%d", M, m, p))
			}
		}
	}
	return vs
}

// span is the versions of versions() from lo to hi inclusive.
func span(lo, hi string) string {
	var out []string
	for _, v := range versions() {
		if Compare(v, lo) >= 0 && Compare(v, hi) <= 0 {
			out = append(out, v)
		}
	}
	return strings.Join(out, " ")
}

func TestRangeMatch(t *testing.T) {
	all := span("0.0.0", "3.3.3")
	for _, tt := range []struct{ r, want string }{
		// One version, and partials.
		{"1.2.3", "1.2.3"},
		{"=1.2.3", "1.2.3"},
		{"v1.2.3", "1.2.3"},
		{"1.2.3+build", "1.2.3"},
		{"1.2", span("1.2.0", "1.2.3")},
		{"1.2.x", span("1.2.0", "1.2.3")},
		{"1", span("1.0.0", "1.3.3")},
		{"1.x", span("1.0.0", "1.3.3")},
		{"1.X.*", span("1.0.0", "1.3.3")},
		{"*", all},
		{"x", all},
		// Comparisons.
		{">1.2.3", span("1.3.0", "3.3.3")},
		{">1.2", span("1.3.0", "3.3.3")},
		{">1", span("2.0.0", "3.3.3")},
		{">=1.2", span("1.2.0", "3.3.3")},
		{"=>1.2", span("1.2.0", "3.3.3")},
		{">= 1.2", span("1.2.0", "3.3.3")},
		{"<1.2", span("0.0.0", "1.1.3")},
		{"<1.2.3", span("0.0.0", "1.2.2")},
		{"<=1.2.3", span("0.0.0", "1.2.3")},
		{"<=1.2", span("0.0.0", "1.2.3")},
		{"=<1", span("0.0.0", "1.3.3")},
		{"<=*", all},
		{">*", ""},
		{"!=1.2.3", strings.Replace(all, " 1.2.3", "", 1)},
		{"!=0.x", span("1.0.0", "3.3.3")},
		{">=2.0.0-beta.1", span("2.0.0", "3.3.3")},
		// Tilde.
		{"~1.2.3", span("1.2.3", "1.2.3")},
		{"~1.2.1", span("1.2.1", "1.2.3")},
		{"~1.2", span("1.2.0", "1.2.3")},
		{"~>1.2", span("1.2.0", "1.2.3")},
		{"~1", span("1.0.0", "1.3.3")},
		{"~0.0.0", span("0.0.0", "0.0.3")},
		{"~*", all},
		// Caret.
		{"^1.2.3", span("1.2.3", "1.3.3")},
		{"^1.2", span("1.2.0", "1.3.3")},
		{"^1", span("1.0.0", "1.3.3")},
		{"^0.2.1", span("0.2.1", "0.2.3")},
		{"^0.2", span("0.2.0", "0.2.3")},
		{"^0.0.2", "0.0.2"},
		{"^0.0", span("0.0.0", "0.0.3")},
		{"^0", span("0.0.0", "0.3.3")},
		{"^1.2.x", span("1.2.0", "1.3.3")},
		{"^*", all},
		// Hyphen ranges.
		{"1.2.1 - 2.1.2", span("1.2.1", "2.1.2")},
		{"1.2 - 2.1", span("1.2.0", "2.1.3")},
		{"1 - 2", span("1.0.0", "2.3.3")},
		// Intersections and unions.
		{">=1.2 <2.1", span("1.2.0", "2.0.3")},
		{">=1.2, <2.1", span("1.2.0", "2.0.3")},
		{">=1.2,<2.1", span("1.2.0", "2.0.3")},
		{" >= 1.2   < 2.1 ", span("1.2.0", "2.0.3")},
		{"1.2 - 2.1 !=1.3.0", strings.Replace(span("1.2.0", "2.1.3"), " 1.3.0", "", 1)},
		{">=3 <1", ""},
		{"^1.2 || ~0.1", span("0.1.0", "0.1.3") + " " + span("1.2.0", "1.3.3")},
		{"1.x || 3.x", span("1.0.0", "1.3.3") + " " + span("3.0.0", "3.3.3")},
		{"0.0.1 || 1.2 - 1.3", "0.0.1 " + span("1.2.0", "1.3.3")},
	} {
		r, err := ParseRange(tt.r)
		if err != nil {
			t.Errorf("ParseRange(%q): %v", tt.r, err)
			continue
		}
		var got []string
		for _, v := range versions() {
			if r.Match(v) {
				got = append(got, v)
			}
		}
		if diff := cmp.Diff(tt.want, strings.Join(got, " ")); diff != "" {
			t.Errorf("%q mismatch (-want +got):\n%s", tt.r, diff)
		}
		if r.String() != tt.r {
			t.Errorf("String() = %q, want %q", r.String(), tt.r)
		}
	}
}

func TestRangeMatchPrerelease(t *testing.T) {
	r, err := ParseRange(">=2.0.0-beta.2 <2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[string]bool{"2.0.0-beta.1": false, "2.0.0-beta.2": true, "2.0.0-beta.10": true, "2.0.0": false, "nightly": false} {
		if got := r.Match(v); got != want {
			t.Errorf("Match(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestParseRangeErrors(t *testing.T) {
	for _, tt := range []struct{ r, want string }{
		{"", "empty range"},
		{"1.2 || ", `alternative 2 (""): empty range`},
		{"not a range !", `"not" is neither a number nor a wildcard`},
		{"1.2.3.4", "at most three numbers"},
		{"1..2", "a number is missing"},
		{"v", "a number is missing"},
		{"1.x.3", "a number after a wildcard"},
		{"1.2-beta", "a prerelease needs all three numbers"},
		{"1.2-1.4", "a hyphen range is written A - B"},
		{"1.2 -1.4", "a hyphen range is written A - B"},
		{"1.2 - >1.4", "a hyphen range is written A - B"},
		{">=1 - 2", "a hyphen range takes versions without an operator"},
		{"1.2 - 1.4 - 1.6", `unexpected "-"`},
		{"1.2.3 - ", "a version after - is missing"},
		{">=", "a version after >= is missing"},
		{">= <2", `unexpected "<", want a version`},
		{">>1", `unknown operator ">>"`},
		{"!1.2", `unknown operator "!"`},
		{"1.2,", "a version is missing at the end"},
		{",1.2", `unexpected ","`},
		{"1.2,,1.3", `unexpected ","`},
		{"1 | 2", `unexpected "|"`},
		{"1.2.3-be_ta", `unexpected "_"`},
		{"1.2.3-01", `"01" is not a prerelease`},
		{"1.2.3+", `"" is not build metadata`},
		{"1234567890123456789.0.0", "more than 18 digits"},
	} {
		_, err := ParseRange(tt.r)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseRange(%q) = %v, want an error saying %q", tt.r, err, tt.want)
		}
	}
}

// FuzzParseRange holds the parser to its contract on any input: no panic,
// and a parsed range's String is its text and it matches only versions.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{">=2.1.200 <2.2", "^1.2 || ~0.1", "1.2 - 2.1", "1.x", "*", "!=1.2.3", ">=1,<2", "1.2-beta", "1.2 -1.4"} {
		f.Add(s, "1.2.3")
	}
	f.Fuzz(func(t *testing.T, s, v string) {
		r, err := ParseRange(s)
		if err != nil {
			if err.Error() == "" {
				t.Errorf("ParseRange(%q): empty error", s)
			}
			return
		}
		if r.String() != s {
			t.Errorf("String() = %q, want %q", r.String(), s)
		}
		if !Valid(v) && r.Match(v) {
			t.Errorf("%q matched %q, not a version", s, v)
		}
	})
}
