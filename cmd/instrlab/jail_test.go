package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/netjail"
)

func TestDecideNetns(t *testing.T) {
	for _, tt := range []struct {
		mode      string
		live      bool
		supported error
		use       bool
		note      string // a part of the note on stderr; "" for none
		err       string // a part of the error; "" for none
	}{
		{mode: "auto", use: true},
		{mode: "auto", supported: netjail.ErrNotLinux, note: "runs are not network-isolated (" + netjail.ErrNotLinux.Error() + ")"},
		{mode: "auto", supported: netjail.ErrUnsupported, note: "not network-isolated"},
		{mode: "auto", live: true, supported: netjail.ErrNotLinux},
		{mode: "on", use: true},
		{mode: "on", supported: netjail.ErrNotLinux, err: "-netns on: a loopback-only network namespace needs Linux and root: "},
		{mode: "on", live: true, err: "conflicts with -live"},
		{mode: "off", supported: netjail.ErrNotLinux},
		{mode: "sometimes", err: `-netns "sometimes"`},
	} {
		use, note, err := decideNetns(tt.mode, tt.live, tt.supported)
		name := tt.mode
		if tt.supported != nil {
			name += " unsupported"
		}
		if use != tt.use {
			t.Errorf("%s: use = %v, want %v", name, use, tt.use)
		}
		if (tt.note == "") != (note == "") || !strings.Contains(note, tt.note) {
			t.Errorf("%s: note %q, want one with %q", name, note, tt.note)
		}
		if (tt.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %v, want one with %q", name, err, tt.err)
		}
		if tt.supported != nil && err != nil && tt.err != "" && !errors.Is(err, tt.supported) && tt.mode == "on" {
			t.Errorf("%s: error %v does not wrap %v", name, err, tt.supported)
		}
	}
}
