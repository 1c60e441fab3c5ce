package netjail

import (
	"fmt"
	"io"
)

// A Mode is the -netns setting of instrlab run and sweep: Auto isolates
// each client when this machine can (Supported), On insists, Off never
// isolates.
type Mode string

// The modes, as -netns spells them.
const (
	Auto Mode = "auto"
	On   Mode = "on"
	Off  Mode = "off"
)

// ParseMode reads a -netns value.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Auto, On, Off:
		return m, nil
	}
	return "", fmt.Errorf("-netns %q: want auto, on or off", s)
}

// Use decides whether the clients of a run are isolated. A live run needs
// the network: Auto does not isolate it (On with live is the caller's
// usage error). When Auto cannot isolate, a note on notes says so; when
// On cannot, that is the error.
func (m Mode) Use(live bool, notes io.Writer) (bool, error) {
	use, note, err := m.use(live, Supported())
	if note != "" {
		fmt.Fprintln(notes, note)
	}
	return use, err
}

// use is Use given what Supported returned.
func (m Mode) use(live bool, supported error) (bool, string, error) {
	switch {
	case m == Off || m == Auto && live:
		return false, "", nil
	case supported == nil:
		return true, "", nil
	case m == Auto:
		return false, fmt.Sprintf("run: runs are not network-isolated (%v); the table's \"outside names asked\" row says \"not isolated\"", supported), nil
	}
	return false, "", fmt.Errorf("-netns on: %w", supported)
}
