package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/lab"
)

// TestServerStartsAsFromTheShell: a server that needs a variable of the
// caller's environment and a path relative to the caller's directory (a
// script named ./srv.sh that serves the file its variable names) starts
// under check and under run alike, as the user's shell starts it: both
// see its instructions, the same ones; run's record names the directory
// and the variables, and the value of a secret one reaches no evidence.
func TestServerStartsAsFromTheShell(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the server is a shell script")
	}
	dir := t.TempDir()
	text := "# Notes server\n\nThe notes server keeps a workshop's notes. Use find_note to look one up by its title.\n"
	script := "#!/bin/sh\n" +
		"[ -n \"$AGREE_NOTES\" ] || { echo 'Error: AGREE_NOTES is not set' >&2; exit 3; }\n" +
		"exec \"$AGREE_LAB\" serve lab -instr-file \"$AGREE_NOTES\"\n"
	if err := os.WriteFile(filepath.Join(dir, "notes.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "srv.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	t.Setenv("AGREE_NOTES", "notes.md") // relative: the server must start in dir
	t.Setenv("AGREE_LAB", binary)
	t.Setenv("AGREE_TOKEN", "hunter2secret")

	stdout, stderr, _ := runCheckTest(t, "-format", "json", "--", "./srv.sh")
	var checked struct {
		Servers []struct {
			Legacy struct {
				Outcome      string  `json:"outcome"`
				Detail       string  `json:"detail"`
				Instructions *string `json:"instructions"`
			} `json:"legacy"`
		} `json:"servers"`
	}
	if err := json.Unmarshal([]byte(stdout), &checked); err != nil || len(checked.Servers) != 1 {
		t.Fatalf("check -format json: %v\n%s\n%s", err, stdout, stderr)
	}
	if l := checked.Servers[0].Legacy; l.Instructions == nil || *l.Instructions != text {
		t.Fatalf("check did not see the server's instructions: %s %s", l.Outcome, l.Detail)
	}

	out := t.TempDir()
	var runErr bytes.Buffer
	args := []string{"run", "-client", "fake@1", "-lab", binary, "-netns", "off", "-timeout", "60s", "-out", out, "-server", "--", "./srv.sh"}
	if err := run(context.Background(), args, new(bytes.Buffer), &runErr); err != nil {
		t.Fatalf("run -server: %v\n%s", err, runErr.String())
	}
	rs := readResults(t, out)
	if len(rs) != 1 || rs[0].Status != analyze.StatusOK {
		t.Fatalf("run: %+v", rs)
	}
	if got := rs[0].ServerTexts.Instructions[lab.ReplyInitialize]; got != *checked.Servers[0].Legacy.Instructions {
		t.Errorf("run saw the instructions %q, check %q", got, *checked.Servers[0].Legacy.Instructions)
	}
	rec, err := analyze.ReadRecord(rs[0].Dir)
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	if rec.Server == nil || rec.Server.Dir != wd || !slices.Contains(rec.Server.Env, "AGREE_NOTES") || !slices.Contains(rec.Server.Env, "AGREE_TOKEN") {
		t.Errorf("the record's server start %+v: want the directory %s and the variables AGREE_NOTES and AGREE_TOKEN named", rec.Server, wd)
	}
	filepath.Walk(out, func(path string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if data, _ := os.ReadFile(path); bytes.Contains(data, []byte("hunter2secret")) {
				t.Errorf("%s holds the value of a variable of the caller's environment", path)
			}
		}
		return nil
	})
}
