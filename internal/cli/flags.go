package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// A ListFlag collects a flag that may be given more than once, in order.
type ListFlag []string

func (l *ListFlag) String() string     { return strings.Join(*l, ",") }
func (l *ListFlag) Set(s string) error { *l = append(*l, s); return nil }

// SplitList splits a comma-separated flag value, dropping empty parts.
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// BoolSet reports whether args set the boolean flag name to true before
// any "--", for what must be known when the flags could not be parsed
// (check's -json, for its error object).
func BoolSet(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if !strings.HasPrefix(a, "-") {
			continue
		}
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if a == name || a == name+"=true" || a == name+"=1" {
			return true
		}
	}
	return false
}

// Version is the version of the main module this program was built from
// ("(devel)" when it does not say) and of the MCP Go SDK it links
// ("unknown" when it does not).
func Version() (main, sdk string) {
	main, sdk = "(devel)", "unknown"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return
	}
	if v := bi.Main.Version; v != "" {
		main = v
	}
	for _, d := range bi.Deps {
		if d.Path == "github.com/modelcontextprotocol/go-sdk" {
			sdk = d.Version
		}
	}
	return
}

// Glossary is where each word of the flags and outputs is defined, once;
// GlossaryLine the line every usage text and the program's help end with.
const (
	Glossary     = "https://github.com/instrlab/instrlab/blob/main/docs/glossary.md"
	GlossaryLine = "The words, one per concept: " + Glossary + "\n"
)

// Usage is a FlagSet's Usage: text, then the flags with their defaults,
// then, after a blank line, what each of more writes, and last where the
// glossary is.
func Usage(fs *flag.FlagSet, text string, more ...func(io.Writer)) func() {
	return func() {
		fmt.Fprint(fs.Output(), text)
		printDefaults(fs)
		for _, m := range more {
			fmt.Fprintln(fs.Output())
			m(fs.Output())
		}
		fmt.Fprint(fs.Output(), "\n"+GlossaryLine)
	}
}

// VersionCommand is a program's "version" command: it prints the
// program's version and the MCP Go SDK's (Version).
func VersionCommand(prog string) Func {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if len(args) > 0 {
			if args[0] == "-h" || args[0] == "-help" {
				fmt.Fprintf(stdout, "Usage: %s version\n", prog)
				return ErrHelp
			}
			return UsageError{Msg: fmt.Sprintf("version: unexpected argument %q", args[0])}
		}
		v, sdk := Version()
		fmt.Fprintf(stdout, "%s %s (MCP Go SDK %s)\n", prog, v, sdk)
		return nil
	}
}

// ParseCall reads one -call (run's and check's): a tool's name, alone or
// with its input as a JSON object after '=' (TOOL={"arg":1}); input is
// nil when none is given.
func ParseCall(s string) (tool string, input json.RawMessage, err error) {
	name, in, hasIn := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if name == "" {
		return "", nil, fmt.Errorf("%q: want TOOL or TOOL=JSON", s)
	}
	if hasIn {
		var obj map[string]any
		if err := json.Unmarshal([]byte(in), &obj); err != nil {
			return "", nil, fmt.Errorf("%q: the input of %s is not a JSON object: %v", s, name, err)
		}
		input = json.RawMessage(in)
	}
	return name, input, nil
}
