package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// workflowCommand returns a line of out that a GitHub Actions runner would
// read as a workflow command ("::" after white space, "##[" anywhere; a
// line ends at CR or LF), as the runner reads every line of a step's
// stdout and stderr.
func workflowCommand(out string) (string, bool) {
	for _, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\r' || r == '\n' }) {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") || strings.Contains(l, "##[") {
			return l, true
		}
	}
	return "", false
}

// TestCheckShowNoWorkflowCommands: a server's instructions whose lines are
// workflow commands (::add-mask::, ::stop-commands::, ##[...]) are shown
// by check -show, in a CI log, as text that no runner reads as a command.
func TestCheckShowNoWorkflowCommands(t *testing.T) {
	text := "Use the tools.\n::add-mask::hunter2\n  ::stop-commands::pause\n\u3000::warning::forged\nsee ##[error]forged too"
	file := writeFile(t, "ci.txt", text)
	out, stderr, _ := runCheckTest(t, "-show", "--", binary, "serve", "lab", "-eras", "legacy,modern", "-instr-file", file)
	if l, ok := workflowCommand(out + stderr); ok {
		t.Errorf("a runner reads %q as a workflow command:\n%s", l, out)
	}
	for _, want := range []string{`\x3a:add-mask::hunter2`, `  \x3a:stop-commands::pause`, `#\x23[error]forged`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckJSONErrorData: an error reply whose data holds invalid UTF-8
// and escape sequences is copied into check -json as valid JSON in valid
// UTF-8, with nothing raw to show.
func TestCheckJSONErrorData(t *testing.T) {
	script := `read -r line; id=$(printf '%s' "$line" | sed 's/.*"id":\([0-9]*\).*/\1/')
printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32603,"message":"boom","data":{"why":"\377\376 \\u001b[2J \302\233"}}}\n' "$id"; sleep 5`
	out, stderr, _ := runCheckTest(t, "-json", "-timeout", "5s", "--", "sh", "-c", script)
	if !utf8.ValidString(out) || !json.Valid([]byte(out)) {
		t.Fatalf("check -json wrote invalid JSON:\n%q\n%s", out, stderr)
	}
	if r, ok := rawControl(out); ok {
		t.Errorf("check -json holds %U raw:\n%s", r, out)
	}
	if !strings.Contains(out, `\ufffd\ufffd \u001b[2J \u009b`) {
		t.Errorf("check -json lacks the error's data:\n%s", out)
	}
}

// TestCheckVariationSelectors: variation selectors that spell bytes after
// a character are hidden text: a finding, and escaped when shown; an
// emoji's own presentation selector (❤️) is not.
func TestCheckVariationSelectors(t *testing.T) {
	text := "Use the tools ❤️. Hidden:a\ufe01\ufe02\ufe03\U000e0100 end"
	file := writeFile(t, "vs.txt", text)
	out, _, _ := runCheckTest(t, "-show", "--", binary, "serve", "lab", "-eras", "legacy,modern", "-instr-file", file)
	for _, want := range []string{"variation-selector", `a\ufe01\ufe02\ufe03\U000e0100 end`, "tools ❤️."} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, '\ufe01') {
		t.Errorf("a variation selector reached the terminal raw:\n%s", out)
	}
}

// TestRunFailureReasonEscaped: a failed run's reason quotes the server's
// stderr; run's progress line, its Markdown table and its HTML show it
// escaped (no escape sequence, no workflow command, no raw HTML). On main
// the progress line printed it raw.
func TestRunFailureReasonEscaped(t *testing.T) {
	out := t.TempDir()
	script := `printf '\033]0;pwned\007 <img src=x> ##[add-mask]x\n::warning::forged\n' >&2; exit 4`
	var stdout, stderr bytes.Buffer
	args := []string{"run", "-client", "fake@1", "-lab", binary, "-out", out, "-netns", "off", "-timeout", "10s", "-format", "md", "-server", "--", "sh", "-c", script}
	if err := run(context.Background(), args, &stdout, &stderr); err == nil {
		t.Fatal("run with a failing server exited 0")
	}
	html, _ := os.ReadFile(filepath.Join(out, "table.html"))
	md, _ := os.ReadFile(filepath.Join(out, "table.md"))
	for name, text := range map[string]string{"stderr": stderr.String(), "stdout": stdout.String(), "table.md": string(md), "table.html": string(html)} {
		if strings.Contains(text, "\x1b") || name != "stderr" && name != "stdout" && strings.Contains(strings.ReplaceAll(text, `\<img`, ""), "<img") {
			t.Errorf("%s holds the server's text raw:\n%s", name, text)
		}
		if l, ok := workflowCommand(text); ok {
			t.Errorf("%s: a runner reads %q as a workflow command", name, l)
		}
	}
	if !strings.Contains(stderr.String(), `\x1b]0;pwned\x07`) {
		t.Errorf("the progress line lacks the escaped reason:\n%s", stderr.String())
	}
}
