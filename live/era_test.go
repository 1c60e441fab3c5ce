package live_test

import (
	"testing"

	"github.com/instrlab/instrlab/lab"
	"github.com/instrlab/instrlab/live"
)

// TestEraWords: live's Era, kept apart so that a server author's program
// needs nothing of the lab, says the eras in the words of lab.Era, the
// vocabulary the rest of instrlab uses.
func TestEraWords(t *testing.T) {
	for _, tt := range []struct {
		live live.Era
		lab  lab.Era
	}{{live.Legacy, lab.Legacy}, {live.Modern, lab.Modern}} {
		if tt.live.String() != string(tt.lab) {
			t.Errorf("live %q, lab %q", tt.live, tt.lab)
		}
	}
}
