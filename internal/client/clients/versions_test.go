package clients

import (
	"context"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
)

// TestVersionsNeedsAnNpmClient: a client that is not installed from npm,
// or not known, has no version list, and says so before any request.
func TestVersionsNeedsAnNpmClient(t *testing.T) {
	Register("fake-unpublished", func(v string) client.Client { return &fakeclient.Client{Version: v} })
	t.Cleanup(func() { delete(known, "fake-unpublished") })
	if _, err := Versions(context.Background(), "fake-unpublished"); err == nil || !strings.Contains(err.Error(), "is not installed from npm") {
		t.Errorf("Versions(fake) = %v, want: not installed from npm", err)
	}
	if _, err := Versions(context.Background(), "no-such-client"); err == nil || !strings.Contains(err.Error(), "unknown") {
		t.Errorf("Versions(unknown) = %v, want unknown", err)
	}
}
