package npm

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInstalledAndFind(t *testing.T) {
	dir := t.TempDir()
	if v := Installed(dir, "@openai/codex"); v != "" {
		t.Errorf("Installed in an empty prefix = %q", v)
	}
	writeFile(t, filepath.Join(dir, "node_modules", "@openai", "codex", "package.json"), `{"name":"@openai/codex","version":"0.169.0"}`)
	writeFile(t, filepath.Join(dir, "node_modules", "broken", "package.json"), `{`)
	if v := Installed(dir, "@openai/codex"); v != "0.169.0" {
		t.Errorf("Installed = %q, want 0.169.0", v)
	}
	if v := Installed(dir, "broken"); v != "" {
		t.Errorf("Installed(broken) = %q", v)
	}
	writeFile(t, filepath.Join(dir, "node_modules", "b", "bin"), "")
	got, err := Find(dir, "node_modules/a/bin", "node_modules/b", "node_modules/b/bin")
	if err != nil || got != filepath.Join(dir, "node_modules", "b", "bin") {
		t.Errorf("Find = %q, %v; want the first existing file", got, err)
	}
	if _, err := Find(dir, "nothing"); err == nil || !strings.Contains(err.Error(), "nothing") {
		t.Errorf("Find of a missing file: %v", err)
	}
}

func TestEnsureUsesTheCache(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("PATH", "") // no npm: an install would fail
	p := Package{Client: "codex", Version: "0.169.0", Name: "@openai/codex"}
	dir, err := p.Dir()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cache, "instrlab", "clients", "codex@0.169.0"); dir != want {
		t.Fatalf("Dir = %q, want %q", dir, want)
	}
	if _, err := Ensure(context.Background(), p, io.Discard); err == nil || !strings.Contains(err.Error(), ErrNoNPM.Error()) {
		t.Fatalf("Ensure without an install or npm: %v, want %v", err, ErrNoNPM)
	}
	writeFile(t, filepath.Join(dir, "node_modules", "@openai", "codex", "package.json"), `{"version":"0.169.0"}`)
	got, err := Ensure(context.Background(), p, io.Discard)
	if err != nil || got != dir {
		t.Errorf("Ensure with the version cached = %q, %v", got, err)
	}
}

func TestEnsureFile(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("PATH", "") // no npm and no node: only the cache can serve
	p := Package{Client: "codex", Version: "0.169.0", Name: "@openai/codex"}
	dir, err := p.Dir()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "node_modules", "@openai", "codex", "package.json"), `{"version":"0.169.0"}`)
	writeFile(t, filepath.Join(dir, "node_modules", "@openai", "codex", "bin", "codex"), "")
	got, err := EnsureFile(context.Background(), p, io.Discard, "binary", "node_modules/x", "node_modules/@openai/codex/bin/codex")
	if want := filepath.Join(dir, "node_modules", "@openai", "codex", "bin", "codex"); err != nil || got != want {
		t.Errorf("EnsureFile = %q, %v; want %q", got, err, want)
	}
	if _, err := EnsureFile(context.Background(), p, io.Discard, "binary", "node_modules/x"); err == nil ||
		!strings.HasPrefix(err.Error(), "finding the codex binary: none of node_modules/x under ") {
		t.Errorf("EnsureFile of a missing file: %v", err)
	}
	if _, _, err := NodeScript(context.Background(), p, io.Discard, "node_modules/@openai/codex/bin/codex"); err == nil ||
		!strings.HasPrefix(err.Error(), "codex@0.169.0 runs on Node.js: ") {
		t.Errorf("NodeScript without node: %v", err)
	}
}

// TestNoVersionNamesTheMissingPackage: opencode-ai@1.17.20 is served but
// npm failed on the platform package its install script asks for (npm's
// output as seen on 2026-12-01); the error says which, and is still
// ErrNoVersion. When the missing one is the package itself, nothing is
// added.
func TestNoVersionNamesTheMissingPackage(t *testing.T) {
	out := "npm error npm error code ETARGET\n" +
		"npm error npm error notarget No matching version found for opencode-linux-x64-baseline-musl@1.17.20.\n" +
		"npm error npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.\n"
	err := noVersion("opencode-ai", "1.17.20", out)
	if !errors.Is(err, ErrNoVersion) || err.Error() != "installing opencode-ai@1.17.20: no such version on npm: npm found no opencode-linux-x64-baseline-musl@1.17.20" {
		t.Errorf("noVersion = %v", err)
	}
	err = noVersion("opencode-ai", "9.9.9", "npm error notarget No matching version found for opencode-ai@9.9.9.\n")
	if !errors.Is(err, ErrNoVersion) || err.Error() != "installing opencode-ai@9.9.9: no such version on npm" {
		t.Errorf("noVersion of the package itself = %v", err)
	}
}
