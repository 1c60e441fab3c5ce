package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
	"github.com/instrlab/instrlab/internal/version"
	"golang.org/x/tools/txtar"
)

// record reads one section of npm's recorded answer NAME
// (internal/client/npm/testdata/view/NAME.txtar).
func record(t *testing.T, name, section string) []byte {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "..", "npm", "testdata", "view", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range a.Files {
		if f.Name == section {
			return f.Data
		}
	}
	return nil
}

// fakeNPM puts on PATH an npm whose "npm view PACKAGE versions --json"
// prints answers[PACKAGE] and exits 0, and for any other package prints
// the recorded answer fail and exits 1.
func fakeNPM(t *testing.T, answers map[string][]byte, fail string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake npm is a shell script")
	}
	dir := t.TempDir()
	for pkg, out := range answers {
		if err := os.WriteFile(filepath.Join(dir, strings.ReplaceAll(pkg, "/", "_")), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []string{"stdout", "stderr"} {
		if err := os.WriteFile(filepath.Join(dir, "fail."+s), record(t, fail, s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := "#!/bin/sh\nf=\"" + dir + "/$(printf %s \"$2\" | tr / _)\"\n" +
		"if [ -f \"$f\" ]; then cat \"$f\"; exit 0; fi\n" +
		"cat " + dir + "/fail.stdout; cat " + dir + "/fail.stderr >&2; exit 1\n"
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// kiloPackage is the package Kilo Code CLI's adapter installs here.
func kiloPackage(t *testing.T) string {
	c, err := clients.New("kilo")
	if err != nil {
		t.Fatal(err)
	}
	return c.(client.Published).Package()
}

// answers gives every pinned client's package the list of its pin alone,
// but Kilo Code CLI's package npm's recorded list, and Qwen Code's its pin
// and one release after it.
func answers(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for name, pin := range pins.All() {
		c, err := clients.New(name)
		if err != nil {
			t.Fatal(err)
		}
		out[c.(client.Published).Package()] = []byte(`["` + pin + `"]`)
	}
	out[kiloPackage(t)] = record(t, "kilocode-cli-linux-x64", "stdout")
	out["@qwen-code/qwen-code"] = []byte(`["` + pins.Version("qwen") + `", "99.0.0", "99.1.0-preview.1"]`)
	return out
}

// TestRun: through an npm that answers with recorded output, propose
// prints each client with newer releases as a sweep target and writes the
// summary; when npm serves no package of a client, or cannot reach its
// registry, it says which and exits 1, having proposed the others (offline:
// those it asked before).
func TestRun(t *testing.T) {
	var kilo []string // the recorded releases after Kilo's pin
	vs, err := npm.ParseVersions("@kilocode/cli-linux-x64", answers(t)[kiloPackage(t)], nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if version.Prerelease(v) == "" && version.Compare(v, pins.Version("kilo")) > 0 {
			kilo = append(kilo, v)
		}
	}
	kiloLine, kiloRow := "", ""
	if len(kilo) > 0 {
		kiloLine = "kilo@>=" + pins.Version("kilo") + "\n"
		kiloRow = "| kilo | " + pins.Version("kilo") + " | " + strings.Join(kilo, ", ") + " | `kilo@>=" + pins.Version("kilo") + "` |\n"
	}
	qwenLine := "qwen@>=" + pins.Version("qwen") + "\n"
	qwenRow := "| qwen | " + pins.Version("qwen") + " | 99.0.0 | `qwen@>=" + pins.Version("qwen") + "` |\n"

	for _, tc := range []struct {
		name, fail, missing string // a package npm answers with the recorded failure fail
		err                 error
		stdout, rows        string
	}{
		{name: "every package", fail: "e404", stdout: kiloLine + qwenLine, rows: kiloRow + qwenRow},
		{name: "claude-code not served", fail: "e404", missing: "@anthropic-ai/claude-code", err: npm.ErrNoPackage,
			stdout: kiloLine + qwenLine,
			rows: "| claude-code | " + pins.Version("claude-code") + " | not listed: listing the versions of @anthropic-ai/claude-code: npm serves no such package | |\n" +
				kiloRow + qwenRow},
		// Offline, the clients after opencode are not asked.
		{name: "offline at opencode", fail: "enotfound", missing: "opencode-ai", err: npm.ErrOffline,
			stdout: kiloLine,
			rows:   kiloRow + "| opencode | " + pins.Version("opencode") + " | not listed: listing the versions of opencode-ai: npm cannot reach its registry (ENOTFOUND) | |\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := answers(t)
			delete(a, tc.missing)
			fakeNPM(t, a, tc.fail)
			summary := filepath.Join(t.TempDir(), "summary.md")
			var stdout, stderr strings.Builder
			err := run(context.Background(), []string{"-summary", summary}, &stdout, &stderr)
			if tc.err == nil && err != nil || !errors.Is(err, tc.err) {
				t.Errorf("run = %v, want %v", err, tc.err)
			}
			if diff := cmp.Diff(tc.stdout, stdout.String()); diff != "" {
				t.Errorf("stdout mismatch (-want +got):\n%s", diff)
			}
			b, err := os.ReadFile(summary)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "|---|---|---|---|\n"+tc.rows+"\n") {
				t.Errorf("summary:\n%s\nwant the rows:\n%s", b, tc.rows)
			}
		})
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"-timeout", "0s"}, {"extra"}, {"-nope"}} {
		var ue cli.UsageError
		if err := run(context.Background(), args, &strings.Builder{}, &strings.Builder{}); !errors.As(err, &ue) {
			t.Errorf("run(%q) = %v, want a usage error", args, err)
		}
	}
}
