//go:build !linux

package netjail

import (
	"errors"
	"testing"
)

// TestHostOffLinux checks that a build for any OS but Linux has no jail.
func TestHostOffLinux(t *testing.T) {
	if err := Supported(); !errors.Is(err, ErrNotLinux) {
		t.Errorf("Supported() = %v, want ErrNotLinux", err)
	}
}
