package budget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/matrix"
)

// A Command is "instrlab budget": the clients whose budgets to measure,
// and how (Options, its Client and Out set per client). The command line
// fills Specs, Settings and MatrixName; Validate makes Clients, Env and
// Matrix of them.
type Command struct {
	Options
	Clients []client.Client
	Budgets []string
	Format  string
	// Profile, when set, is the profile file the measurements are
	// written into (UpdateProfile); Line is the command line recorded
	// there.
	Profile, Line string

	// Specs are the -client values, made into Clients by NewClients (the
	// command's client lookup: budget links no client adapter).
	Specs      []string
	NewClients func(specs []string) ([]client.Client, error)
	// Settings are the -env values, NAME=VALUE; MatrixName is -matrix, a
	// matrix file or a built-in matrix.
	Settings   []string
	MatrixName string
}

// Validate reports the first thing wrong with c's values, naming the
// flag, before any run, and fills what they name: the clients, the
// settings, the probe matrix, and the budgets (wait when none).
func (c *Command) Validate() error {
	if len(c.Budgets) == 0 {
		c.Budgets = []string{Wait}
	}
	var err error
	switch c.Env, err = ParseSettings(c.Settings); {
	case len(c.Specs) == 0:
		return errors.New("budget: -client is required, as in -client claude-code@2.1.328")
	case c.Out == "":
		return errors.New("budget: -out is required")
	case c.Timeout <= 0:
		return errors.New("-timeout must be positive")
	case err != nil:
		return err
	}
	if c.Clients, err = c.NewClients(c.Specs); err != nil {
		return fmt.Errorf("-client: %w", err)
	}
	if err := c.check(); err != nil {
		return err
	}
	if c.Matrix, err = matrix.Named(c.MatrixName, matrix.Atlas()); err != nil {
		return fmt.Errorf("-matrix: %w", err)
	}
	return nil
}

// check: the budgets are known, a profile to write is the one client's,
// and readable, the format is one of Formats.
func (c Command) check() error {
	if err := CheckNames(c.Budgets); err != nil {
		return err
	}
	if c.Profile != "" {
		if len(c.Clients) > 1 {
			return fmt.Errorf("-profile is one client version's: give one -client with it")
		}
		p, err := readProfile(c.Profile)
		if err != nil {
			return fmt.Errorf("-profile: %w", err)
		}
		for _, cl := range c.Clients {
			if cl.Spec().String() != p.ID() {
				return fmt.Errorf("-profile %s is the profile of %s, not %s", c.Profile, p.ID(), cl.Spec())
			}
		}
	}
	return Formats.Check(c.Format)
}

// Run measures every budget of every client, each into its own
// directory under Out, writes them into the profile when asked, and
// prints them in Format; what was measured before an error is printed
// too.
func (c Command) Run(ctx context.Context, stdout, stderr io.Writer) error {
	var all []Measurement
	o := c.Options
	for _, cl := range c.Clients {
		o.Client = cl // its runs go under Out/BUDGET/STEP/CLIENT/...
		ms, err := Measure(ctx, o, c.Budgets)
		all = append(all, ms...)
		if err != nil {
			Write(stdout, c.Format, all)
			return err
		}
	}
	if c.Profile != "" {
		if err := UpdateProfile(c.Profile, all, time.Now().UTC().Format("2006-01-02"), c.Line); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "budgets written into %s\n", c.Profile)
	}
	return Write(stdout, c.Format, all)
}

// CheckNames reports the first of names that is not a budget Measure
// knows, naming -budget (budget's and sweep's).
func CheckNames(names []string) error {
	for _, b := range names {
		if !contains(Names, b) {
			return fmt.Errorf("-budget %q: want one of %s", b, strings.Join(Names, ", "))
		}
	}
	return nil
}

// ParseSettings reads NAME=VALUE settings (-env) into a map; nil for none.
func ParseSettings(kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	env := map[string]string{}
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("-env %q: want NAME=VALUE", kv)
		}
		env[k] = v
	}
	return env, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
