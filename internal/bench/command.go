package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/lab"
)

// A Command is "instrlab bench": its flags, checked by Validate before
// anything starts, then Run. Args are its NAME=COMMAND arguments; without
// any, the lab of this executable is measured.
type Command struct {
	Spawns, Rounds, Requests int
	Throughput               string // comma-separated names; "" for all
	Format                   string // one of Formats
	Writes                   string // "each" or "one"
	Check                    bool   // fail when a target is missed
	Args                     []string

	contenders []Contender
	only       []string
}

// Validate checks the flags and parses the servers to measure; its
// errors are the command line's, naming the flag.
func (c *Command) Validate() error {
	switch {
	case c.Spawns < 1:
		return errors.New("-spawns must be at least 1")
	case c.Rounds < 0:
		return errors.New("-rounds must not be negative")
	case c.Requests < 1:
		return errors.New("-requests must be at least 1")
	case c.Writes != "each" && c.Writes != "one":
		return fmt.Errorf("-writes %q: want each or one", c.Writes)
	case Formats.Check(c.Format) != nil:
		return Formats.Check(c.Format)
	}
	for _, a := range c.Args {
		ct, err := ParseContender(a)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(c.contenders, func(d Contender) bool { return d.Name == ct.Name }) {
			return fmt.Errorf("two servers named %q", ct.Name)
		}
		c.contenders = append(c.contenders, ct)
	}
	names := []string{NameLab} // without Args, the lab alone
	if len(c.contenders) > 0 {
		names = nil
		for _, ct := range c.contenders {
			names = append(names, ct.Name)
		}
	}
	if c.Throughput != "" {
		c.only = strings.Split(c.Throughput, ",")
		for _, n := range c.only {
			if !slices.Contains(names, n) {
				return fmt.Errorf("-throughput names %q, which is not a server", n)
			}
		}
	}
	return nil
}

// Run measures the servers and writes the tables to stdout, progress to
// stderr; with Check, a missed target is an error.
func (c *Command) Run(stdout, stderr io.Writer) error {
	if len(c.contenders) == 0 {
		self, err := os.Executable()
		if err != nil {
			return err
		}
		c.contenders = []Contender{{Name: NameLab, Argv: slices.Concat([]string{self}, lab.Subcommand, lab.Args{Log: LogPlaceholder}.Args())}}
	}
	dir, err := os.MkdirTemp("", "instrlab-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	before := loadText()
	results, err := Run(Config{Contenders: c.contenders, Spawns: c.Spawns, Rounds: c.Rounds, Requests: c.Requests,
		Throughput: c.only, EachWrite: c.Writes == "each", Dir: dir, Progress: stderr})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	note := fmt.Sprintf("%d spawns per server, then %d rounds of %d pipelined tools/list (writes: %s), interleaved; %s/%s, %d CPUs, load average %s before, %s after.",
		c.Spawns, c.Rounds, c.Requests, c.Writes, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), before, loadText())
	if err := Write(stdout, c.Format, note, results); err != nil {
		return err
	}
	if c.Check {
		for _, t := range Targets(results) {
			if !t.Met {
				return fmt.Errorf("bench: target missed: %s: %s", t.Goal, t.Measured)
			}
		}
	}
	return nil
}

// loadText is the one-minute load average, "unknown" where the system
// does not tell it.
func loadText() string {
	if s, ok := load.Now(); ok {
		return strconv.FormatFloat(s.One, 'f', 2, 64)
	}
	return "unknown"
}
