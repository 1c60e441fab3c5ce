package clients

import (
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	c, err := New("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Spec().String(); s != "claude-code@2.1.328" {
		t.Errorf("default spec %q", s)
	}
	if _, err := New("no-such-client@1"); err == nil || !strings.Contains(err.Error(), "known: claude-code") {
		t.Errorf("New(unknown) = %v", err)
	}
}
