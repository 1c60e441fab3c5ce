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
		for _, want := range []string{"## instrlab check\n", "<pre>", "fail  max-chars", "</pre>"} {
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
}

// TestActionShape checks action.yml without a YAML parser: a composite
// action whose every input is passed to the script as INPUT_<NAME> and
// read there (actionlint lints workflows, not a composite action's file).
func TestActionShape(t *testing.T) {
	yml, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../../action/check.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(yml), "\n  using: composite\n") {
		t.Error("action.yml is not a composite action")
	}
	_, rest, _ := strings.Cut(string(yml), "\ninputs:\n")
	inputs, _, _ := strings.Cut(rest, "\nruns:\n")
	var names []string
	for _, line := range strings.Split(inputs, "\n") {
		if name, ok := strings.CutSuffix(line, ":"); ok && strings.HasPrefix(name, "  ") && !strings.HasPrefix(name, "   ") {
			names = append(names, strings.TrimSpace(name))
		}
	}
	if len(names) < 7 {
		t.Fatalf("inputs %v, want command, url, config, rules, profiles, args, fail-on", names)
	}
	for _, n := range names {
		env := "INPUT_" + strings.ToUpper(strings.ReplaceAll(n, "-", "_"))
		if !strings.Contains(string(yml), env+": ${{ inputs."+n+" }}") {
			t.Errorf("input %s is not passed to the script as %s", n, env)
		}
		if !strings.Contains(string(script), env) {
			t.Errorf("action/check.sh does not read %s", env)
		}
	}
}
