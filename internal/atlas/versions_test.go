package atlas

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelect(t *testing.T) {
	published := []string{"2.1.10", "1.0.0", "2.1.9", "2.1.11-beta.1", "2.0.0", "2.1.11"}
	for _, tt := range []struct{ sel, want string }{
		{"all", "1.0.0 2.0.0 2.1.9 2.1.10 2.1.11"},
		{"latest", "2.1.11"},
		{"newest", "2.1.11"},
		{"2.0.0..2.1.10", "2.0.0 2.1.9 2.1.10"},
		{"2.1.9", "2.1.9"},
		{">=2.1.0 <2.1.11", "2.1.9 2.1.10"},
		{"^2.0.0", "2.0.0 2.1.9 2.1.10 2.1.11"},
	} {
		s, err := ParseSelector(tt.sel)
		if err != nil {
			t.Fatalf("%s: %v", tt.sel, err)
		}
		got, err := s.Select(published)
		if err != nil {
			t.Fatalf("%s: %v", tt.sel, err)
		}
		if diff := cmp.Diff(tt.want, strings.Join(got, " ")); diff != "" {
			t.Errorf("%s mismatch (-want +got):\n%s", tt.sel, diff)
		}
	}
	for _, tt := range []struct{ sel, want string }{
		{"2.1.99", "npm does not serve 2.1.99 (nearest: 2.1.11)"},
		{"1.5.0..2.1.9", "npm does not serve 1.5.0 (nearest: 1.0.0, 2.0.0)"},
		{">=3.0.0", "no published version matches"},
	} {
		s, err := ParseSelector(tt.sel)
		if err != nil {
			t.Fatalf("%s: %v", tt.sel, err)
		}
		_, err = s.Select(published)
		if !errors.Is(err, ErrNoMatch) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want ErrNoMatch saying %q", tt.sel, err, tt.want)
		}
	}
	for _, bad := range []string{"2.1.10..2.0.0", "x..2.0.0", "not a range !"} {
		s, err := ParseSelector(bad)
		if err == nil {
			_, err = s.Select(published)
		}
		if err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
