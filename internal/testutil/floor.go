package testutil

import (
	"context"
	"io"
	"strings"
	"testing"
)

// A FloorClient is a client whose versions before a floor cannot be driven.
type FloorClient interface {
	Supports(version string) error
	Provision(ctx context.Context, progress io.Writer) error
}

// RefusedBelowFloor checks that c, made at version below its floor, is
// refused by Supports (the sweep's check) and by Provision with an error
// that begins with want, and that Provision does not reach npm (PATH holds
// none), while the floor version itself is supported.
func RefusedBelowFloor(t *testing.T, c FloorClient, below, floor, want string) {
	t.Helper()
	t.Setenv("PATH", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	if err := c.Supports(below); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Supports = %v, want %q...", err, want)
	}
	if err := c.Provision(context.Background(), io.Discard); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Provision = %v, want %q...", err, want)
	}
	if err := c.Supports(floor); err != nil {
		t.Errorf("Supports(%s) = %v", floor, err)
	}
}
