package budget

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/untrusted"
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
	// Jobs is how many clients are measured at once (each client's runs
	// one after another, as its bisection needs); 1 when unset.
	Jobs int
	// Profile, when set, is the profile file the measurements are
	// written into (UpdateProfile), or a directory of profiles, each
	// client's into its CLIENT@VERSION.json there; Line is the command
	// line recorded there.
	Profile, Line string

	// Specs are the -client values, made into Clients by NewClients (the
	// command's client lookup: budget links no client adapter).
	Specs      []string
	NewClients func(ctx context.Context, specs []string, progress io.Writer) ([]client.Client, error)
	// Settings are the -env values, NAME=VALUE; MatrixName is -matrix, a
	// matrix file or a built-in matrix.
	Settings   []string
	MatrixName string
}

// Validate reports the first thing wrong with c's values, naming the
// flag, before any run, and fills what they name: the clients, the
// settings, the probe matrix, and the budgets (wait when none).
func (c *Command) Validate(ctx context.Context) error {
	if len(c.Budgets) == 0 {
		c.Budgets = []string{Wait}
	}
	var err error
	switch c.Env, err = ParseSettings(c.Settings); {
	case len(c.Specs) == 0:
		return errors.New("budget: -client is required, as in -client claude-code@2.1.328")
	case c.Out == "":
		return errors.New("budget: -out is required")
	case !dirOrNothing(c.Out):
		return fmt.Errorf("budget: -out %s is not a directory: budget writes its runs' evidence into one", c.Out)
	case c.Timeout <= 0:
		return errors.New("-timeout must be positive")
	case c.Jobs < 0:
		return errors.New("-j must be at least 1")
	case err != nil:
		return err
	}
	if c.Clients, err = c.NewClients(ctx, c.Specs, c.progress()); err != nil {
		return fmt.Errorf("-client: %w", err)
	}
	if err := c.check(ctx); err != nil {
		return err
	}
	if c.Matrix, err = matrix.Named(ctx, c.MatrixName, matrix.Atlas()); err != nil {
		return fmt.Errorf("-matrix: %w", err)
	}
	return nil
}

// check: the budgets are known, a profile to write is the one client's,
// and readable, the format is one of Formats.
func (c Command) check(ctx context.Context) error {
	if err := CheckNames(c.Budgets); err != nil {
		return err
	}
	if c.Profile != "" {
		if len(c.Clients) > 1 && !c.profileDir() {
			return fmt.Errorf("-profile %s is one client version's profile: give one -client with it, or a directory of profiles", c.Profile)
		}
		for _, cl := range c.Clients {
			path := c.profileOf(cl.Spec().String())
			p, err := profiles.ReadFile(ctx, path)
			if err != nil {
				return fmt.Errorf("-profile: %w", err)
			}
			if cl.Spec().String() != p.ID() {
				return fmt.Errorf("-profile %s is the profile of %s, not %s", path, p.ID(), cl.Spec())
			}
		}
	}
	return Formats.Check(c.Format)
}

// profileDir says whether -profile is a directory of profiles.
func (c Command) profileDir() bool {
	fi, err := os.Stat(c.Profile)
	return err == nil && fi.IsDir()
}

// profileOf is the profile file of the client version spec: -profile
// itself, or its CLIENT@VERSION.json when -profile is a directory.
func (c Command) profileOf(spec string) string {
	if c.profileDir() {
		return filepath.Join(c.Profile, spec+".json")
	}
	return c.Profile
}

// writeProfiles writes each client's measurements into its profile. Into
// one profile file, a failed measurement refuses them all (UpdateProfile);
// into a directory, a client's failed measurements are left out and
// named, and the rest written.
func (c Command) writeProfiles(ctx context.Context, per [][]Measurement, stderr io.Writer) error {
	date := time.Now().UTC().Format("2006-01-02")
	many := c.profileDir()
	for i, cl := range c.Clients {
		ms := per[i]
		if many {
			ms = nil
			for _, m := range per[i] {
				if m.Failed != "" {
					fmt.Fprintf(stderr, "%s %s budget not written into its profile: %s\n", m.Client, m.Budget, untrusted.EscapeLine(firstLine(m.Failed)))
					continue
				}
				ms = append(ms, m)
			}
			if len(ms) == 0 {
				continue
			}
		}
		path := c.profileOf(cl.Spec().String())
		if err := UpdateProfile(ctx, path, ms, date, c.Line); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "budgets written into %s\n", path)
	}
	return nil
}

// Run measures every budget of every client, each into its own
// directory under Out, Jobs clients at once, writes them into the profile
// when asked, and prints them in Format, in the order the clients were
// given; what was measured before an error is printed too.
func (c Command) Run(ctx context.Context, stdout, stderr io.Writer) error {
	per, err := c.measureAll(ctx)
	var all []Measurement
	for _, ms := range per {
		all = append(all, ms...)
	}
	if err != nil {
		Write(stdout, c.Format, all)
		return err
	}
	if err := measuredSomething(all); err != nil {
		Write(stdout, c.Format, all)
		return err
	}
	if c.Profile != "" {
		if err := c.writeProfiles(ctx, per, stderr); err != nil {
			return err
		}
	}
	return Write(stdout, c.Format, all)
}

// measuredSomething is an error when no measurement read anything (each
// "not measured": no run, or a search whose runs told nothing before one
// failed): a budget command that measured nothing does not exit 0, and
// writes no profile.
func measuredSomething(all []Measurement) error {
	var why []string
	for _, m := range all {
		if k, ok := kindOf(m.Budget); ok && m.Runs > 0 && !k.unread(m) {
			return nil
		}
		why = append(why, fmt.Sprintf("%s %s: %s", m.Client, m.Budget, cmp.Or(m.Failed, "no run")))
	}
	return fmt.Errorf("budget: nothing was measured (%s)", cmp.Or(strings.Join(why, "; "), "no budget"))
}

// dirOrNothing reports whether path is a directory or does not exist.
func dirOrNothing(path string) bool {
	st, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist) || err == nil && st.IsDir()
}

// measureAll measures each client's budgets, Jobs clients at a time,
// their runs sharing one load gate; one after another, it stops at the
// first error, as a single client's search does. At once, every client
// is measured and the errors are joined, each naming its client.
func (c Command) measureAll(ctx context.Context) ([][]Measurement, error) {
	per := make([][]Measurement, len(c.Clients))
	o := c.Options
	if c.Jobs <= 1 || len(c.Clients) < 2 {
		for i, cl := range c.Clients {
			o.Client = cl // its runs go under Out/BUDGET/STEP/CLIENT/...
			ms, err := Measure(ctx, o, c.Budgets)
			per[i] = ms
			if err != nil {
				return per, err
			}
		}
		return per, nil
	}
	o.Progress = &lockedWriter{w: o.progress()}
	d, why := Smallest(c.Clients)
	fmt.Fprintf(o.Progress, "load: %s; %d clients at once; a server must start in under %s, or fewer runs go at once: a quarter of the smallest wait budget, %s\n", load.Text(), c.Jobs, (d / 4).Round(time.Millisecond), why)
	o.Gate = load.NewGate(c.Jobs, d, 2*time.Minute, o.Progress)
	errs := make([]error, len(c.Clients))
	sem := make(chan struct{}, c.Jobs)
	var wg sync.WaitGroup
	for i, cl := range c.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			o := o
			o.Client = cl
			per[i], errs[i] = Measure(ctx, o, c.Budgets)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s: %w", cl.Spec(), errs[i])
			}
		}()
	}
	wg.Wait()
	return per, errors.Join(errs...)
}

// lockedWriter lets the clients measured at once write their progress
// lines without mixing them.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
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
