package pins

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTable: the embedded pins.json parses, and Write gives it back byte
// for byte, so a tool that bumps a pin changes one line.
func TestTable(t *testing.T) {
	got, err := Parse(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || Version("claude-code") == "" || Version("no-such-client") != "" {
		t.Fatalf("table %v", got)
	}
	if diff := cmp.Diff(string(file), string(Write(got))); diff != "" {
		t.Errorf("pins.json is not as Write writes it (-want +got):\n%s", diff)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`[1]`, "reading the pins: json"},
		{`{"a": "latest"}`, `a: "latest" is not a version`},
		{`{"a": 1}`, "reading the pins: json"},
	} {
		if _, err := Parse([]byte(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestBumps(t *testing.T) {
	pins := map[string]string{"a": "1.2.0", "b": "2.0.0", "c": "0.9.0", "d": "3.0.0"}
	newest := map[string]string{
		"a": "1.10.0", // newer by version, older by text
		"b": "1.9.0",  // older: a pin never moves back
		"d": "3.0.0",  // the same
		"e": "9.0.0",  // no pin: not a client here
		"c": "weekly", // not a version
	}
	want := []Bump{{Client: "a", From: "1.2.0", To: "1.10.0"}}
	if diff := cmp.Diff(want, Bumps(pins, newest)); diff != "" {
		t.Errorf("Bumps mismatch (-want +got):\n%s", diff)
	}
	if got := want[0].String(); got != "a 1.2.0 → 1.10.0" {
		t.Errorf("String = %q", got)
	}
}
