package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusesWhatGoReleaserRefuses: a misspelt field, a build without the
// target, and an archive file that is not there each fail the check with
// the reason, as goreleaser check and a snapshot would; the repository's
// own config is taken (loaded only: the builds run in .ci/release-config.sh).
func TestRefusesWhatGoReleaserRefuses(t *testing.T) {
	good, err := os.ReadFile("../../../.goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"misspelt field", "    binary: instrlab\n", "    binray: instrlab\n", "field binray not found"},
		{"no such target", "goarch: [amd64, arm64]", "goarch: [arm64]", "does not build linux/amd64"},
		{"archive file missing", "README.md", "README-MISSING.md", "matches nothing"},
	} {
		bad := strings.Replace(string(good), tc.from, tc.to, 1)
		if bad == string(good) {
			t.Fatalf("%s: %q is not in the config", tc.name, tc.from)
		}
		dir := t.TempDir()
		cfg := filepath.Join(dir, ".goreleaser.yaml")
		if err := os.WriteFile(cfg, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if tc.name == "archive file missing" {
			// The builds run from the config's directory: point it at the
			// repository but for the one file.
			cfg = filepath.Join("../../..", ".goreleaser.yaml.test")
			if err := os.WriteFile(cfg, []byte(bad), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Remove(cfg) })
		}
		err := run(cfg, t.TempDir(), "linux/amd64")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}
