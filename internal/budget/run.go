package budget

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/client"
)

// A Command is "instrlab budget": the clients whose budgets to measure,
// and how (Options, its Client and Out set per client).
type Command struct {
	Options
	Clients []client.Client
	Budgets []string
	Format  string
	// Profile, when set, is the profile file the measurements are
	// written into (UpdateProfile); Line is the command line recorded
	// there.
	Profile, Line string
}

// Check reports the first thing wrong with c's values, naming the flag,
// before any run: a profile to write must be the one client's, and
// readable.
func (c Command) Check() error {
	for _, b := range c.Budgets {
		if !contains(Names, b) {
			return fmt.Errorf("-budget %q: want one of %s", b, strings.Join(Names, ", "))
		}
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
