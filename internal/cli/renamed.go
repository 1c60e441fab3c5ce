package cli

import (
	"flag"
	"fmt"
	"strings"
)

// A rename is a flag of a command, or one value of a flag, that took a new
// name so that one concept has one word (docs/glossary.md); its command is
// the FlagSet's name ("check", or "instrlab serve lab" as typed). The old name
// still works until the next minor version, saying so on the command's
// error output, and no usage text shows it.
type rename struct {
	command string // the FlagSet's name
	flag    string // a renamed value's flag; "" when the flag itself was renamed
	old     string
	new     string
}

var renames = []rename{
	// The lab's -era took eras that are not one era ("dual"); -eras is
	// the set it speaks. The value first, so that -eras legacy,modern says both.
	{command: "instrlab serve lab", flag: "eras", old: "dual", new: "legacy,modern"},
	{command: "instrlab serve lab", old: "era", new: "eras"},
	{command: "instrlab-lab", flag: "eras", old: "dual", new: "legacy,modern"},
	{command: "instrlab-lab", old: "era", new: "eras"},
	{command: "check", old: "repeat", new: "repeats"},
	{command: "budget", old: "profile", new: "profile-out"},
	{command: "run", flag: "format", old: "summary", new: "text"},
	{command: "report", flag: "format", old: "summary", new: "text"},
}

// addRenamed gives fs the old names of its command's renamed flags and
// values, before it parses.
func addRenamed(fs *flag.FlagSet) {
	for _, r := range renames {
		if r.command != fs.Name() {
			continue
		}
		if r.flag == "" {
			if f := fs.Lookup(r.new); f != nil && fs.Lookup(r.old) == nil {
				fs.Var(renamedFlag{f.Value, fs, r}, r.old, "")
			}
		} else if f := fs.Lookup(r.flag); f != nil {
			if _, done := f.Value.(renamedValue); !done {
				f.Value = renamedValue{f.Value, fs, r}
			}
		}
	}
}

// deprecated is the line an old name prints when it is used.
func (r rename) deprecated(fs *flag.FlagSet) {
	old, new := "-"+r.old, "-"+r.new
	if r.flag != "" {
		old, new = "-"+r.flag+" "+r.old, "-"+r.flag+" "+r.new
	}
	command := r.command
	if !strings.HasPrefix(command, "instrlab") {
		command = "instrlab " + command
	}
	fmt.Fprintf(fs.Output(), "%s: %s is deprecated and goes in the next minor version: use %s (docs/glossary.md)\n", command, old, new)
}

// A renamedFlag is a flag's old name: it sets the flag's value.
type renamedFlag struct {
	flag.Value
	fs *flag.FlagSet
	r  rename
}

func (f renamedFlag) Set(s string) error {
	f.r.deprecated(f.fs)
	return f.Value.Set(s)
}

func (f renamedFlag) IsBoolFlag() bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// A renamedValue is a flag that takes an old value as its new one.
type renamedValue struct {
	flag.Value
	fs *flag.FlagSet
	r  rename
}

func (v renamedValue) Set(s string) error {
	if s == v.r.old {
		v.r.deprecated(v.fs)
		s = v.r.new
	}
	return v.Value.Set(s)
}

// printDefaults is fs.PrintDefaults without the old names of renamed
// flags, each flag shown by its own value's type.
func printDefaults(fs *flag.FlagSet) {
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	shown.SetOutput(fs.Output())
	fs.VisitAll(func(f *flag.Flag) {
		v := f.Value
		switch r := v.(type) {
		case renamedFlag:
			return
		case renamedValue:
			v = r.Value
		}
		shown.Var(v, f.Name, f.Usage)
		shown.Lookup(f.Name).DefValue = f.DefValue
	})
	shown.PrintDefaults()
}
