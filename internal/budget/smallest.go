package budget

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/load"
	"github.com/instrlab/instrlab/internal/profiles"
)

// DefaultSmallest is the budget a run's load is held to when none of its
// clients has a wait budget measured: Claude Code's of about 2 s halved,
// since another client drops its servers after 250 ms headless and most
// are not measured yet.
const DefaultSmallest = time.Second

// Smallest is the smallest wait budget measured of the clients' versions
// (their profiles' budgets; a start-up timeout is not one: Claude Code's
// 30 s connection timeout is not how long it waits before its first
// request), which a run's server start-up must stay well under, and what
// it is, in words.
func Smallest(cs []client.Client) (time.Duration, string) {
	builtin, err := profiles.Builtin()
	if err != nil {
		return DefaultSmallest, fmt.Sprintf("%s (no profiles: %v)", DefaultSmallest, err)
	}
	best, why := time.Duration(0), ""
	var racing []string
	for _, c := range cs {
		ps, err := profiles.Select(context.Background(), builtin, []string{c.Spec().String()})
		if err != nil || len(ps) == 0 {
			continue
		}
		p := ps[0]
		for _, b := range p.Budgets {
			d := time.Duration(b.Within * float64(time.Second))
			if b.Name != Wait || len(b.Settings) > 0 || b.Way != "" || b.Below || b.Above || d <= 0 {
				continue
			}
			if d < NoWait {
				racing = append(racing, fmt.Sprintf("%s waits %s", p.ID(), d.Round(time.Millisecond)))
				continue
			}
			if best == 0 || d < best {
				best, why = d, fmt.Sprintf("%s of %s (measured %s)", d.Round(time.Millisecond), p.ID(), b.Date)
			}
		}
	}
	if best == 0 {
		best, why = DefaultSmallest, fmt.Sprintf("%s (no wait budget measured of these clients)", DefaultSmallest)
	}
	if len(racing) > 0 {
		why += fmt.Sprintf("; not held to: %s, under %s, so a server of theirs races the first request however few runs go at once", strings.Join(racing, ", "), NoWait)
	}
	return best, why
}

// NoWait is the wait budget under which a client does not wait for its
// servers at all, as far as a load gate goes: no server starts in a
// quarter of it (Droid 0.225.2 waits 13-111 ms; the lab alone takes
// about 10 ms), so holding every run of a matrix to it would only make
// the runs go one at a time. Such a client's runs are timing-sensitive
// whatever the load, and analyze marks them so.
const NoWait = 100 * time.Millisecond

// Gate is the load gate of a run of cs, jobs at a time (runner.Runner
// starts up to three times jobs runs, the waiting ones included): server
// start-ups held under a quarter of the smallest wait budget measured of
// them, waiting up to wait for the load to fall when one at a time is not
// enough. It says on say what it holds the runs to.
func Gate(cs []client.Client, jobs int, wait time.Duration, say io.Writer) *load.Gate {
	d, why := Smallest(cs)
	fmt.Fprintf(say, "load: %s; a server must start in under %s, or fewer runs go at once: a quarter of the smallest wait budget, %s\n", load.Text(), (d / 4).Round(time.Millisecond), why)
	return load.NewGate(3*max(jobs, 1), d, wait, say)
}
