package version

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestValidAndStrict(t *testing.T) {
	for _, tt := range []struct {
		s             string
		valid, strict bool
	}{
		{"1.2.3", true, true},
		{"0.0.0", true, true},
		{"2.1.11-beta.1", true, true},
		{"1.2.3+build.7", true, true},
		{"1.2.3-rc.1+b", true, true},
		{"v1.2.3", true, false},
		{"1.2", true, false},
		{"1", true, false},
		{"01.2.3", false, false},
		{"1.2.3-01", false, false},
		{"1.2.3.4", false, false},
		{"nightly", false, false},
		{"", false, false},
		{"1.2-beta", false, false},
	} {
		if got := Valid(tt.s); got != tt.valid {
			t.Errorf("Valid(%q) = %v, want %v", tt.s, got, tt.valid)
		}
		if got := Strict(tt.s); got != tt.strict {
			t.Errorf("Strict(%q) = %v, want %v", tt.s, got, tt.strict)
		}
	}
}

func TestCompare(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"1.2.3", "1.2.3", 0},
		{"1.2.3", "1.2.10", -1},
		{"1.10.0", "1.9.9", 1},
		{"2.0.0-beta.1", "2.0.0", -1},
		{"2.0.0-beta.2", "2.0.0-beta.10", -1},
		{"2.0.0-alpha", "2.0.0-beta", -1},
		{"1.2.3+a", "1.2.3+b", 0},
		{"1.2", "1.2.0", 0},
		{"v1.2.3", "1.2.3", 0},
		{"nightly", "0.0.0", -1},
		{"nightly", "latest", 0},
	} {
		if got := Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Compare(tt.b, tt.a); got != -tt.want {
			t.Errorf("Compare(%q, %q) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

func TestPrerelease(t *testing.T) {
	for s, want := range map[string]string{"1.2.3": "", "1.2.3-rc.1+b": "-rc.1", "nightly": ""} {
		if got := Prerelease(s); got != want {
			t.Errorf("Prerelease(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestSort(t *testing.T) {
	in := strings.Fields("2.1.10 nightly 1.0.0 2.1.9 2.1.11-beta.1 2.0.0 2.1.11 1.0.0+b 10.0.0")
	want := strings.Fields("1.0.0 1.0.0+b 2.0.0 2.1.9 2.1.10 2.1.11-beta.1 2.1.11 10.0.0")
	if diff := cmp.Diff(want, Sort(in)); diff != "" {
		t.Errorf("Sort mismatch (-want +got):\n%s", diff)
	}
}

// TestNewest: the newest release, past prereleases, builds and strings
// that are not versions; none in a list without a release.
func TestNewest(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{[]string{"2.1.9", "2.1.10", "2.1.2"}, "2.1.10"},
		{[]string{"1.0.0", "2.0.0-beta.1", "latest"}, "1.0.0"},
		{[]string{"0.0.1790142911-g7618fb"}, ""},
		{nil, ""},
	} {
		if got := Newest(tt.in); got != tt.want {
			t.Errorf("Newest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
