package sweep

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
)

// TestSweepValidate: each value a sweep cannot take is refused before
// anything is installed, naming its flag.
func TestSweepValidate(t *testing.T) {
	valid := Sweep{Out: "out", Jobs: 2, Timeout: time.Minute}
	if err := valid.Validate(); err != nil {
		t.Fatalf("valid sweep: %v", err)
	}
	for _, tt := range []struct {
		name string
		edit func(*Sweep)
		want string
	}{
		{"no out", func(s *Sweep) { s.Out = "" }, "sweep: -out is required"},
		{"jobs", func(s *Sweep) { s.Jobs = 0 }, "-j must be at least 1"},
		{"timeout", func(s *Sweep) { s.Timeout = 0 }, "-timeout must be positive"},
		{"grid", func(s *Sweep) { s.Grid = -1 }, "-grid must be 0 or more"},
		{"repeat-sensitive", func(s *Sweep) { s.RepeatSensitive = -1 }, "-repeat-sensitive must not be negative"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := valid
			tt.edit(&s)
			if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestSweepPinned: each target's client at the version NewClient gives
// its bare name, in order; one it does not know is left out.
func TestSweepPinned(t *testing.T) {
	s := Sweep{NewClient: func(spec string) (client.Client, error) {
		if spec != "fake" {
			return nil, errors.New("unknown")
		}
		return &fakeclient.Client{Version: "7"}, nil
	}}
	var got []string
	for _, c := range s.Pinned([]Target{{Client: "fake"}, {Client: "nope"}, {Client: "fake"}}) {
		got = append(got, c.Spec().String())
	}
	if diff := cmp.Diff([]string{"fake@7", "fake@7"}, got); diff != "" {
		t.Errorf("pinned mismatch (-want +got):\n%s", diff)
	}
}

func TestParseTarget(t *testing.T) {
	tg, err := ParseTarget("claude-code")
	if err != nil || tg.Client != "claude-code" || tg.Selector.String() != "all" {
		t.Errorf("bare name: %+v, %v", tg, err)
	}
	if _, err := ParseTarget("@all"); err == nil {
		t.Error("a target without a client name accepted")
	}
}
