package cli

import (
	"bytes"
	"flag"
	"strings"
	"testing"
)

// TestRenamed: a renamed flag's old name sets the new flag and says it is
// deprecated; an old value becomes the new one; usage shows neither.
func TestRenamed(t *testing.T) {
	for _, tc := range []struct {
		command string
		args    []string
		flag    string
		want    string
		line    string
	}{
		{"check", []string{"-repeat", "3"}, "repeats", "3", "-repeat is deprecated"},
		{"check", []string{"-repeat=4"}, "repeats", "4", "use -repeats"},
		{"check", []string{"-repeats", "5"}, "repeats", "5", ""},
		{"budget", []string{"-profile", "p.json"}, "profile-out", "p.json", "-profile is deprecated"},
		{"run", []string{"-format", "summary"}, "format", "text", "-format summary is deprecated and goes in the next minor version: use -format text"},
		{"run", []string{"-format=md"}, "format", "md", ""},
		{"report", []string{"-format", "summary"}, "format", "text", "use -format text"},
		{"diff", []string{"-format", "text"}, "format", "text", ""},
	} {
		fs := flag.NewFlagSet(tc.command, flag.ContinueOnError)
		var out bytes.Buffer
		fs.SetOutput(&out)
		fs.Int("repeats", 1, "spawns per era")
		fs.String("profile-out", "", "write the profile")
		fs.String("format", "md", "output: text, md or json")
		if tc.command != "check" && tc.command != "budget" {
			fs = flag.NewFlagSet(tc.command, flag.ContinueOnError)
			fs.SetOutput(&out)
			fs.String("format", "md", "output: text, md or json")
		}
		fs.Usage = Usage(fs, "Usage:\n")
		if err := ParseFlags(fs, tc.args); err != nil {
			t.Fatalf("%s %q: %v", tc.command, tc.args, err)
		}
		if got := fs.Lookup(tc.flag).Value.String(); got != tc.want {
			t.Errorf("%s %q: -%s is %q, want %q", tc.command, tc.args, tc.flag, got, tc.want)
		}
		if tc.line == "" && out.Len() > 0 || !strings.Contains(out.String(), tc.line) {
			t.Errorf("%s %q: printed %q, want %q", tc.command, tc.args, out.String(), tc.line)
		}
		out.Reset()
		fs.Usage()
		for _, old := range []string{"-repeat ", "-profile "} {
			if strings.Contains(out.String(), "  "+old) {
				t.Errorf("%s: the usage shows the old flag %s:\n%s", tc.command, old, out.String())
			}
		}
		if !strings.Contains(out.String(), "  -format string") || !strings.Contains(out.String(), Glossary) {
			t.Errorf("%s: the usage lost a flag's type or the glossary:\n%s", tc.command, out.String())
		}
	}
}

// TestRenamedBoolKeepsBool: an old name of a boolean flag takes no value.
func TestRenamedBoolKeepsBool(t *testing.T) {
	renames = append(renames, rename{command: "t", old: "loud", new: "verbose"})
	defer func() { renames = renames[:len(renames)-1] }()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	v := fs.Bool("verbose", false, "")
	if err := ParseFlags(fs, []string{"-loud", "arg"}); err != nil || !*v || fs.Arg(0) != "arg" {
		t.Errorf("-loud arg: err %v, verbose %v, args %q", err, *v, fs.Args())
	}
}
