package cli

import (
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
