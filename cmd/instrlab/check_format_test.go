package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckFormats runs check with -format github and sarif against the
// lab in a config file: the golden files hold the annotations and the
// SARIF log, the file of each finding being the config.
func TestCheckFormats(t *testing.T) {
	dir := t.TempDir()
	cfg := fmt.Sprintf(`{"mcpServers": {"alpha": {"command": %q, "args": ["serve", "lab", "-instr", "ascii:1500"]}}}`, binary)
	path := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"github", "sarif"} {
		out, stderr, code := runCheckTest(t, "-format", format, "-max-chars", "1000", "-config", path)
		if code != exitFailure {
			t.Fatalf("-format %s: exit %d, want %d (a rule broken); stderr:\n%s", format, code, exitFailure, stderr)
		}
		golden(t, "format-"+format+".txt", strings.ReplaceAll(out, dir, "DIR"))
	}
	out, _, _ := runCheckTest(t, "-format", "github", "-max-chars", "1000", "-config", path)
	if want := "::error file=" + path + ",title=instrlab check%3A alpha%3A max-chars::"; !strings.Contains(out, want) {
		t.Errorf("no annotation %q in:\n%s", want, out)
	}
}

func TestCheckFormatUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-format", "yaml", "--", "true"}, `-format "yaml": want text, md, json, github or sarif`},
		{[]string{"-json", "-format", "github", "--", "true"}, "-json conflicts with -format github"},
	} {
		_, stderr, code := runCheckTest(t, tt.args...)
		if code != exitUsage || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, code, stderr, exitUsage, tt.want)
		}
	}
	out, _, code := runCheckTest(t, "-format", "json", "-max-chars", "100", "--", binary, "serve", "lab")
	if code != exitFailure || !strings.Contains(out, `"code": "max-chars"`) {
		t.Errorf("-format json: exit %d:\n%s", code, out)
	}
}

// TestHelpFinding: "instrlab help finding CODE" prints what a finding
// means, its severity and why, when it fails and its fix, as
// docs/check.md shows it; "help finding" lists every code; a code that
// is none is a usage error naming it.
func TestHelpFinding(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"help", "finding", "truncated"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"truncated: a client cuts the instructions", "severity  degraded:", "fails     never", "fix       put what matters first"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("help finding truncated lacks %q:\n%s", want, stdout.String())
		}
	}
	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "check.md"))
	if err != nil || !strings.Contains(string(docs), "$ instrlab help finding truncated\n"+stdout.String()+"```\n") {
		t.Errorf("docs/check.md's example of help finding is not this output (%v):\n%s", err, stdout.String())
	}
	stdout.Reset()
	if err := run(context.Background(), []string{"help", "finding"}, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), " schema-lost ") {
		t.Errorf("help finding: %v\n%s", err, stdout.String())
	}
	stderr.Reset()
	err = run(context.Background(), []string{"help", "finding", "no-such\x1b[31m"}, &stdout, &stderr)
	if code := exitCode(err, &stderr); code != exitUsage || !strings.Contains(stderr.String(), `no finding "no-such\x1b[31m"`) {
		t.Errorf("an unknown code: exit %d, %q", code, stderr.String())
	}
}
