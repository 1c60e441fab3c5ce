package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
)

type codeError struct{ code int }

func (e codeError) Error() string { return fmt.Sprintf("code %d", e.code) }
func (e codeError) ExitCode() int { return e.code }

func TestExitCode(t *testing.T) {
	for _, tt := range []struct {
		err    error
		code   int
		stderr string
	}{
		{nil, ExitOK, ""},
		{ErrHelp, ExitOK, ""},
		{fmt.Errorf("wrapped: %w", ErrHelp), ExitOK, ""},
		{errors.New("broke"), ExitFailure, "prog: broke\n"},
		{UsageError{Msg: "-n must be positive"}, ExitUsage, "prog: -n must be positive\n"},
		{fmt.Errorf("lab: %w", UsageError{Msg: "bad"}), ExitUsage, "prog: lab: bad\n"},
		{fmt.Errorf("check: %w", codeError{3}), 3, "prog: check: code 3\n"},
	} {
		var stderr strings.Builder
		if code := ExitCode("prog", tt.err, &stderr); code != tt.code || stderr.String() != tt.stderr {
			t.Errorf("ExitCode(%v) = %d, printed %q; want %d, %q", tt.err, code, stderr.String(), tt.code, tt.stderr)
		}
	}
}

func TestParseFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int("n", 0, "")
	if err := ParseFlags(fs, []string{"-h"}); !errors.Is(err, ErrHelp) {
		t.Errorf("-h: %v, want ErrHelp", err)
	}
	err := ParseFlags(fs, []string{"-bogus"})
	if ue, ok := errors.AsType[UsageError](err); !ok || !strings.Contains(ue.Msg, "-bogus") {
		t.Errorf("-bogus: %v, want a UsageError naming the flag", err)
	}
	if err := ParseFlags(fs, []string{"-n", "3"}); err != nil {
		t.Errorf("-n 3: %v", err)
	}
}

func TestClean(t *testing.T) {
	upper := strings.ToUpper
	for _, tt := range []struct {
		err  error
		want error
	}{
		{UsageError{Msg: "bad -x"}, UsageError{Msg: "BAD -X"}},
		{ExitError{3, errors.New("unreached")}, ExitError{3, errors.New("UNREACHED")}},
		{errors.New("plain"), errors.New("PLAIN")},
		{ErrHelp, ErrHelp},
		{nil, nil},
	} {
		got := Clean(tt.err, upper)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) || ExitCode("p", got, io.Discard) != ExitCode("p", tt.err, io.Discard) {
			t.Errorf("Clean(%v) = %v (exit %d), want %v (exit %d)", tt.err, got, ExitCode("p", got, io.Discard), tt.want, ExitCode("p", tt.err, io.Discard))
		}
	}
}

func TestBoolSet(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{[]string{"-json"}, true},
		{[]string{"--json=true", "x"}, true},
		{[]string{"-json=1"}, true},
		{[]string{"-json=false"}, false},
		{[]string{"--", "-json"}, false},
		{[]string{"-jsonx"}, false},
		{[]string{"json"}, false},
		{nil, false},
	} {
		if got := BoolSet(tt.args, "json"); got != tt.want {
			t.Errorf("BoolSet(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestSplitList(t *testing.T) {
	if got := SplitList(" a, ,b,"); strings.Join(got, "|") != "a|b" {
		t.Errorf("SplitList = %q", got)
	}
}

func TestProgram(t *testing.T) {
	var ran []string
	p := Program{Name: "prog", Title: "does things", Commands: []Command{{Name: "go", Summary: "goes", Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		ran = append(ran, strings.Join(args, " "))
		if len(args) > 0 && args[len(args)-1] == "-h" {
			return ErrHelp
		}
		return nil
	}}}}
	for _, tt := range []struct {
		args   []string
		code   int
		stdout string
	}{
		{[]string{"go", "a"}, ExitOK, ""},
		{[]string{"help", "go"}, ExitOK, ""},
		{[]string{"-h"}, ExitOK, "prog: does things\n\nUsage:\n\n\tprog <command> [flags] [args]\n\nCommands:\n\n\tgo         goes\n\thelp       print this help, or the help of one command\n\nRun \"prog help <command>\" or \"prog <command> -h\" for a command's flags.\nThe words, one per concept: " + Glossary + "\n"},
		{[]string{"nope"}, ExitUsage, ""},
		{[]string{"help", "nope"}, ExitUsage, ""},
		{nil, ExitUsage, ""},
	} {
		var stdout strings.Builder
		err := p.Run(context.Background(), tt.args, &stdout, io.Discard)
		if code := ExitCode("prog", err, io.Discard); code != tt.code || tt.stdout != "" && stdout.String() != tt.stdout {
			t.Errorf("%q: exit %d, stdout %q; want %d, %q", tt.args, code, stdout.String(), tt.code, tt.stdout)
		}
	}
	if want := []string{"a", "-h"}; strings.Join(ran, ",") != strings.Join(want, ",") {
		t.Errorf("ran %q, want %q", ran, want)
	}
}
