package opencode

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// fakeOpencode writes an executable that prints help and records its
// calls in dir/calls.
func fakeOpencode(t *testing.T, help string) (bin, dir string) {
	return testutil.FakeHelp(t, "opencode", help)
}

// TestOldVersionWithoutFormatIsRefused: 0.1.174's run --help (as it
// printed it) lists no --format, and the version is refused naming it; a
// version that lists --format and --log-level is driven, its help asked
// once per install.
func TestOldVersionWithoutFormatIsRefused(t *testing.T) {
	old, _ := fakeOpencode(t, "opencode run [message..]\n  --help  -v, --version  --print-logs  -c, --continue  -s, --session  --share  -m, --model")
	if _, err := runFlags(context.Background(), old, ""); err == nil || err.Error() != "cannot be driven: its run --help lists no --format" {
		t.Errorf("runFlags = %v, want a refusal naming --format", err)
	}

	bin, dir := fakeOpencode(t, "opencode run [message..]\n  --print-logs  --log-level  --format  --model")
	prefix := t.TempDir()
	for range 2 {
		flags, err := runFlags(context.Background(), bin, prefix)
		if err != nil {
			t.Fatal(err)
		}
		if !flags["--format"] || !flags["--log-level"] {
			t.Errorf("flags %v", flags)
		}
	}
	if calls, _ := os.ReadFile(filepath.Join(dir, "calls")); string(calls) != "run --help\n" {
		t.Errorf("run --help ran %q, want once per install", calls)
	}
}

// TestRunGetsAnOfflineModelsFile: every run finds models.json in
// opencode's cache folder (so no version fetches models.dev), and a copy
// is kept with the run's client files.
func TestRunGetsAnOfflineModelsFile(t *testing.T) {
	c := &Opencode{Base: Info.At("1.1.27"), bin: "/bin/true", cacheVersion: "18"}
	r := &client.Run{Dir: t.TempDir(), Home: t.TempDir(), Work: t.TempDir(), Prompt: "hi", APIURL: "http://127.0.0.1:1"}
	cmd, _ := testutil.Command(t, c, r, ConfigFile)
	for _, p := range []string{filepath.Join(r.Home, ".cache", "opencode", "models.json"), filepath.Join(r.ClientDir(), "models.json")} {
		if b, err := os.ReadFile(p); err != nil || string(b) != "{}\n" {
			t.Errorf("%s: %q, %v; want {}", p, b, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(r.Home, ".cache", "opencode", "version")); err != nil || string(b) != "18" {
		t.Errorf("cache version file: %q, %v; want 18", b, err)
	}
	if args := strings.Join(cmd.Args, " "); !strings.HasPrefix(args, "/bin/true run --format json --print-logs --log-level DEBUG") {
		t.Errorf("command %s", args)
	}
}

// TestCacheVersionIsReadFromTheBinary: the version is the one named in the
// source the binary embeds (1.1.27's reads var ... CACHE_VERSION = "18"),
// read once per install; a binary naming none gives "".
func TestCacheVersionIsReadFromTheBinary(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "opencode")
	if err := os.WriteFile(bin, []byte("\x7fELF...var app = \"opencode\", data, cache, Global, CACHE_VERSION = \"18\", version2;..."), 0o755); err != nil {
		t.Fatal(err)
	}
	prefix := t.TempDir()
	if v, err := cacheVersion(bin, prefix); err != nil || v != "18" {
		t.Fatalf("cacheVersion = %q, %v; want 18", v, err)
	}
	if err := os.WriteFile(bin, []byte("CACHE_VERSION = \"19\""), 0o755); err != nil {
		t.Fatal(err)
	}
	if v, _ := cacheVersion(bin, prefix); v != "18" {
		t.Errorf("cacheVersion asked again: %q, want the saved 18", v)
	}
	if err := os.WriteFile(bin, []byte("no such name"), 0o755); err != nil {
		t.Fatal(err)
	}
	if v, err := cacheVersion(bin, t.TempDir()); err != nil || v != "" {
		t.Errorf("cacheVersion of a binary naming none = %q, %v; want \"\"", v, err)
	}
	if _, err := cacheVersion(filepath.Join(dir, "missing"), t.TempDir()); err == nil {
		t.Error("cacheVersion of a missing binary: no error")
	}
}

// TestOldVersionsSkipTheZenProviderAndDefaultPlugins: a version before
// 1.1.27 (1.1.16 crashed on the empty models.json's missing "opencode"
// entry, 1.0.152 on its default plugins' offline install) runs with the
// "opencode" provider disabled and the default plugins off; 1.1.27 and
// later, which run without them, are given neither.
func TestOldVersionsSkipTheZenProviderAndDefaultPlugins(t *testing.T) {
	for _, tt := range []struct {
		version string
		old     bool
	}{{"1.0.152", true}, {"1.1.16", true}, {"1.1.26", true}, {"1.1.27", false}, {"1.18.33", false}} {
		c := &Opencode{Base: Info.At(tt.version), bin: "/bin/true"}
		r := &client.Run{Dir: t.TempDir(), Home: t.TempDir(), Work: t.TempDir(), Prompt: "hi", APIURL: "http://127.0.0.1:1"}
		cmd, b := testutil.Command(t, c, r, ConfigFile)
		var cfg struct {
			Disabled []string `json:"disabled_providers"`
			Provider map[string]any
		}
		if err := json.Unmarshal(b, &cfg); err != nil {
			t.Fatal(err)
		}
		disabled := strings.Join(cfg.Disabled, ",") == "opencode"
		plugins := slices.Contains(cmd.Env, "OPENCODE_DISABLE_DEFAULT_PLUGINS=1")
		if disabled != tt.old || plugins != tt.old || cfg.Provider[ProviderID] == nil {
			t.Errorf("%s: disabled_providers %q, default plugins off %v, providers %v; want both %v and the instrlab provider",
				tt.version, cfg.Disabled, plugins, cfg.Provider, tt.old)
		}
	}
}
