package client

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/instrlab/instrlab/internal/version"
)

// A Floor is the oldest version of a client an adapter can drive, and what
// the versions before it lack, as measured (a sweep's could-not-run
// evidence, named in Evidence). Adapters keep theirs in one place and
// implement Supports (atlas.Supporter) and the check at the start of
// Provision with it, so that an older version is refused before anything
// is installed.
type Floor struct {
	Client string
	// Min is the oldest version that can be driven.
	Min string
	// Lack says what older versions lack, as in "stream-json output".
	Lack string
	// Evidence names where the older versions were seen to fail.
	Evidence string
}

// Check returns nil for a version at or after Min, and for one that is not
// a semantic version (which cannot be ordered, so is left to the run to
// show); else an error naming the version, Min and the cause.
func (f Floor) Check(v string) error {
	if !version.Valid(v) {
		return nil
	}
	if version.Compare(v, f.Min) < 0 {
		return fmt.Errorf("%s@%s cannot be driven: versions before %s have no %s (%s)", f.Client, v, f.Min, f.Lack, f.Evidence)
	}
	return nil
}

var optionRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`--[a-z][a-z-]*`) })

// Options returns the long options a version's help text lists (what asks
// for it, as in "--help" or "exec --help", names it in errors), or an
// error naming the first of required it lacks: an adapter leaves out the
// optional options an older version lacks and refuses one without a
// required option.
func Options(help []byte, what string, required ...string) (map[string]bool, error) {
	flags := map[string]bool{}
	for _, f := range optionRE().FindAllString(string(help), -1) {
		flags[f] = true
	}
	for _, f := range required {
		if !flags[f] {
			return nil, fmt.Errorf("cannot be driven: its %s lists no %s", what, f)
		}
	}
	return flags, nil
}
