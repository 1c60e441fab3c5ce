package client

import (
	"fmt"

	"github.com/Masterminds/semver/v3"
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
func (f Floor) Check(version string) error {
	v, err := semver.NewVersion(version)
	if err != nil {
		return nil
	}
	if v.LessThan(semver.MustParse(f.Min)) {
		return fmt.Errorf("%s@%s cannot be driven: versions before %s have no %s (%s)", f.Client, version, f.Min, f.Lack, f.Evidence)
	}
	return nil
}
