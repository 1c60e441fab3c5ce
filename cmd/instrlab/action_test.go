package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionScript runs the GitHub Action's script (action/check.sh) as a
// workflow would, against the lab, with the GITHUB_* files in a temporary
// directory: the annotations go to stdout, the summary to its file, and
// fail-on decides the exit status.
func TestActionScript(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs("../../action/check.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		failOn string
		code   int
	}{{"rule", 1}, {"unreachable", 0}, {"never", 0}} {
		summary := filepath.Join(t.TempDir(), "summary.md")
		cmd := exec.Command("bash", script)
		cmd.Env = append(os.Environ(), "INSTRLAB="+binary, "GITHUB_STEP_SUMMARY="+summary,
			"INPUT_COMMAND="+binary+" serve lab", "INPUT_RULES=-max-chars 100", "INPUT_PROFILES=claude-code", "INPUT_FAIL_ON="+tt.failOn)
		out, err := cmd.Output()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.code {
			t.Errorf("fail-on %s: exit %d, want %d", tt.failOn, code, tt.code)
		}
		if want := ",title=instrlab check%3A instrlab%3A max-chars::legacy era: instructions are 1,000 characters, more than -max-chars 100"; !strings.Contains(string(out), "::error "+want[1:]) {
			t.Errorf("fail-on %s: no max-chars annotation in:\n%s", tt.failOn, out)
		}
		b, err := os.ReadFile(summary)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"# instrlab check\n", "| verdict | client | what decides it |", "| fail | max-chars | the server: instructions over -max-chars |",
			"<details><summary>", "<pre>", "fail      max-chars", "</pre>"} {
			if !strings.Contains(string(b), want) {
				t.Errorf("fail-on %s: summary lacks %q:\n%s", tt.failOn, want, b)
			}
		}
	}

	cmd := exec.Command("bash", script)
	cmd.Env = append(os.Environ(), "INSTRLAB="+binary, "GITHUB_STEP_SUMMARY="+filepath.Join(t.TempDir(), "s.md"))
	out, err := cmd.Output()
	if ee := (*exec.ExitError)(nil); !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), "::error title=instrlab check::set one of the inputs command, url or config") {
		t.Errorf("no server input: %v, %s", err, out)
	}
	code, msg, _ := actionScript(t, "check.sh", "INSTRLAB="+binary, "INPUT_COMMAND="+binary+" serve lab", "INPUT_FAIL_ON=change")
	if code != 2 || !strings.Contains(msg, "::error title=instrlab check::fail-on change: want rule, unreachable or never in mode check") {
		t.Errorf("fail-on of the run mode: exit %d, %s", code, msg)
	}
}

// TestActionShape checks action.yml without a YAML parser: a composite
// action whose every input is passed to one of its scripts as
// INPUT_<NAME> and read there, or used by action.yml itself. actionlint
// parses action.yml (and checks the inputs given to it) only where a
// workflow uses it as a local action: .github/workflows/action.yml does,
// in both modes, and CI lints it.
func TestActionShape(t *testing.T) {
	yml, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("../../.github/workflows/action.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"uses: ./\n", "mode: check\n", "mode: run\n"} {
		if !strings.Contains(string(self), want) {
			t.Errorf(".github/workflows/action.yml lacks %q", want)
		}
	}
	var scripts string
	for _, name := range []string{"check.sh", "run.sh", "install.sh"} {
		b, err := os.ReadFile(filepath.Join("../../action", name))
		if err != nil {
			t.Fatal(err)
		}
		scripts += string(b)
	}
	for _, want := range []string{"\n  using: composite\n", "\nbranding:\n  icon: ", "\n  color: "} {
		if !strings.Contains(string(yml), want) {
			t.Errorf("action.yml lacks %q", want)
		}
	}
	_, rest, _ := strings.Cut(string(yml), "\ninputs:\n")
	inputs, _, _ := strings.Cut(rest, "\noutputs:\n")
	var names []string
	for _, line := range strings.Split(inputs, "\n") {
		if name, ok := strings.CutSuffix(line, ":"); ok && strings.HasPrefix(name, "  ") && !strings.HasPrefix(name, "   ") {
			names = append(names, strings.TrimSpace(name))
		}
	}
	if len(names) < 12 {
		t.Fatalf("inputs %v, want mode, command, url, config, rules, profiles, clients, baseline, args, fail-on, version, artifact", names)
	}
	for _, n := range names {
		env := "INPUT_" + strings.ToUpper(strings.ReplaceAll(n, "-", "_"))
		passed := strings.Contains(string(yml), env+": ${{ inputs."+n)
		if passed && !strings.Contains(scripts, env) {
			t.Errorf("input %s is passed as %s, which no script reads", n, env)
		}
		if !passed && strings.Count(string(yml), "inputs."+n+" ") == 0 {
			t.Errorf("input %s is neither passed to a script nor used in action.yml", n)
		}
	}
}

// TestActionMultiline: rules, args and command given as YAML blocks (one
// item a line) reach instrlab check whole, not only their first line.
func TestActionMultiline(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	script, err := filepath.Abs("../../action/check.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script)
	cmd.Env = append(os.Environ(), "INSTRLAB="+binary, "GITHUB_STEP_SUMMARY="+filepath.Join(t.TempDir(), "s.md"),
		"INPUT_COMMAND="+binary+"\nserve\nlab\n", "INPUT_RULES=-max-tokens 10\n-max-chars 100\n", "INPUT_ARGS=-profile\nclaude-code\n", "INPUT_FAIL_ON=never")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// A lost line of args leaves -profile without its value: a usage
	// error and no annotation at all; of the command, no server.
	for _, want := range []string{"%3A max-tokens::", "%3A max-chars::"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("annotations lack %q (a line of a block was lost):\n%s", want, out)
		}
	}
}
