package netjail

import (
	"errors"
	"strings"
	"testing"
)

func TestModeUse(t *testing.T) {
	for _, tt := range []struct {
		mode      Mode
		live      bool
		supported error
		use       bool
		note      string // a part of the note on stderr; "" for none
		err       string // a part of the error; "" for none
	}{
		{mode: Auto, use: true},
		{mode: Auto, supported: ErrNotLinux, note: "runs are not network-isolated (" + ErrNotLinux.Error() + ")"},
		{mode: Auto, supported: ErrUnsupported, note: "not network-isolated"},
		{mode: Auto, live: true, supported: ErrNotLinux},
		{mode: Auto, live: true},
		{mode: On, use: true},
		{mode: On, supported: ErrNotLinux, err: "-netns on: a loopback-only network namespace needs Linux and root: "},
		{mode: Off, supported: ErrNotLinux},
		{mode: Off},
	} {
		use, note, err := tt.mode.use(tt.live, tt.supported)
		name := string(tt.mode)
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
		if tt.supported != nil && err != nil && !errors.Is(err, tt.supported) {
			t.Errorf("%s: error %v does not wrap %v", name, err, tt.supported)
		}
	}
}

func TestParseMode(t *testing.T) {
	for _, s := range []string{"auto", "on", "off"} {
		if m, err := ParseMode(s); err != nil || string(m) != s {
			t.Errorf("ParseMode(%q) = %q, %v", s, m, err)
		}
	}
	for _, s := range []string{"sometimes", "", "ON"} {
		if _, err := ParseMode(s); err == nil || !strings.Contains(err.Error(), `-netns "`+s+`"`) {
			t.Errorf("ParseMode(%q): error %v, want one naming the flag and value", s, err)
		}
	}
}
