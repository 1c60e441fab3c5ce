package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/cli"
)

// The commands in sequence against one database, calling run and mapping
// its error to an exit code as main does (through cli.Main).
func TestCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "sub", "persona.db")
	t.Setenv(dbEnv, db)
	steps := []struct {
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string // a substring
	}{
		{[]string{"get"}, 0, "supportive\tYou are a warm, encouraging coach. Celebrate progress, suggest gently.\n", ""},
		{[]string{"set", "hardass"}, 0, "", "hardass is active"},
		{[]string{"get", "-json"}, 0, `{
  "name": "hardass",
  "text": "You are a blunt, demanding coach. No hedging. Push for one hard thing today.",
  "focus": "One hard session today: the one you have been putting off. Log it when done. No excuses.",
  "builtIn": true
}
`, ""},
		{[]string{"add", "-focus", "Walk.", "zen", "Breathe first."}, 0, "", "added zen"},
		{[]string{"set", "-db", db, "zen"}, 0, "", ""},
		{[]string{"list"}, 0, `  hardass     built-in  You are a blunt, demanding coach. No hedging. Push for one hard thing today.
  supportive  built-in  You are a warm, encouraging coach. Celebrate progress, suggest gently.
* zen         user      Breathe first.
`, ""},
		{[]string{"set", "nobody"}, 1, "", `unknown persona "nobody"`},
		{[]string{"add", "hardass", "mine"}, 1, "", "built in"},
		{[]string{"get", "extra"}, 2, "", "get takes 0 arguments, got 1"},
		{[]string{"set"}, 2, "", "set takes 1 arguments, got 0"},
		{[]string{"serve", "-stateful"}, 2, "", "-stateful needs -http"},
		{[]string{"serve", "-http", "0.0.0.0:0"}, 2, "", "-http \"0.0.0.0:0\": the host must be a loopback address"},
		{[]string{"serve", "-deadline", "0s"}, 2, "", "-deadline must be positive"},
		{[]string{"serve", "-trim"}, 2, "", "-trim needs -budget"},
		{[]string{"serve", "-budget", "-1"}, 2, "", "-budget must not be negative"},
		{[]string{"serve", "-bogus"}, 2, "", "flag provided but not defined: -bogus"},
		{[]string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{nil, 2, "", "missing command"},
		{[]string{"help"}, 0, usage, ""},
	}
	for _, s := range steps {
		var stdout, stderr bytes.Buffer
		code := cli.ExitCode("persona", run(context.Background(), s.args, &stdout, &stderr), &stderr)
		if code != s.wantCode {
			t.Errorf("persona %s: exit %d, want %d\nstderr:\n%s", strings.Join(s.args, " "), code, s.wantCode, stderr.String())
		}
		if diff := cmp.Diff(s.wantStdout, stdout.String()); diff != "" {
			t.Errorf("persona %s: stdout mismatch (-want +got):\n%s", strings.Join(s.args, " "), diff)
		}
		if !strings.Contains(stderr.String(), s.wantStderr) {
			t.Errorf("persona %s: stderr %q, want it to contain %q", strings.Join(s.args, " "), stderr.String(), s.wantStderr)
		}
	}
}
