package runner

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/netjail"
)

// ErrDirectNotRun reports a run whose every planned run was in the direct
// arm, which needs the network jail that this run does not have.
var ErrDirectNotRun = errors.New("the direct arm was not run")

// dropDirect takes the direct arm out of the plan when the runs are not
// jailed: without the jail's resolver and the run's CA, the vendor's host
// is the real one, so the arm cannot run offline. It says so on w, for
// which clients and why, and reports ErrDirectNotRun, with the reason,
// when nothing else is left to run.
func (r *Runner) dropDirect(w io.Writer) error {
	if r.Netns {
		return nil
	}
	var dropped []string
	left := false
	for _, c := range r.Clients {
		spec := c.Spec().String()
		arms, ok := r.Arms[spec]
		if !ok {
			left = true // its default arm
			continue
		}
		kept := slices.DeleteFunc(slices.Clone(arms), func(a client.Arm) bool { return a.Direct })
		if len(kept) < len(arms) {
			dropped = append(dropped, spec)
		}
		r.Arms[spec] = kept
		left = left || len(kept) > 0
	}
	if len(dropped) == 0 {
		return nil
	}
	why := "-netns off"
	if err := netjail.Supported(); err != nil {
		why = err.Error()
	}
	fmt.Fprintf(w, "run: the direct arm was not run for %s: it needs the network jail (%s)\n", strings.Join(dropped, ", "), why)
	if !left {
		return fmt.Errorf("%w: it needs the network jail (%s)", ErrDirectNotRun, why)
	}
	return nil
}

// directFailure says why a direct run failed, or is not a direct run,
// from what the fake and the jail recorded, or "" when nothing there
// explains it: a client that refused the run's certificate (the fake's
// failed handshakes, with the host asked for), a model request that came
// without TLS (so through a base URL, not the vendor's host), and, for a
// run that reached no model, the names the jail does not know that the
// client asked for (answered "no such host", never the fake).
func directFailure(fake *fakeapi.Server, files evidence.RunDir, failed bool) string {
	var why, refused, broken []string
	for _, h := range fake.Recorder.Handshakes() {
		switch {
		case strings.HasPrefix(h.Error, "remote error: "):
			// The client's alert: it refused what the fake offered.
			refused = appendOnce(refused, fmt.Sprintf("%s (%s)", orNone(h.SNI), h.Error))
		case h.Error != "":
			broken = appendOnce(broken, fmt.Sprintf("%s (%s)", orNone(h.SNI), h.Error))
		}
	}
	if len(refused) > 0 {
		why = append(why, "the client refused the run's certificate for "+strings.Join(refused, ", "))
	}
	if len(broken) > 0 && (failed || len(fake.Recorder.Requests()) == 0) {
		why = append(why, "TLS handshakes that did not finish: "+strings.Join(broken, ", "))
	}
	plain := 0
	for _, q := range fake.Recorder.Requests() {
		if q.API != "" && q.Host == "" {
			plain++
		}
	}
	if plain > 0 {
		why = append(why, fmt.Sprintf("%d model requests came without TLS, through a base URL, not to the vendor's host", plain))
	}
	if failed || len(fake.Recorder.Requests()) == 0 {
		if lookups, _, err := netjail.ReadLookups(files.DNSLog()); err == nil {
			if names := netjail.Outside(lookups); len(names) > 0 {
				why = append(why, "it asked for names the jail does not know (answered no such host): "+strings.Join(names, ", "))
			}
		}
	}
	return strings.Join(why, "; ")
}

func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func orNone(sni string) string {
	if sni == "" {
		return "no host named (no SNI)"
	}
	return sni
}

// joinReasons joins a run's reason and what explains it.
func joinReasons(reason, why string) string {
	if reason == "" {
		return why
	}
	return reason + ": " + why
}

// envKeys names the variables of env (KEY=VALUE), sorted.
func envKeys(env []string) []string {
	keys := make([]string, 0, len(env))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
