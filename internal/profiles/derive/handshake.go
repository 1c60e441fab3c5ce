package derive

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/lab"
)

// deriveHandshake reads the lab's message logs: whether the client sent
// server/discover first on stdio, and what it did after each answer.
func deriveHandshake(runs []run) (profiles.Handshake, []string) {
	var probed, dual, discoverOnly, dualInit int
	arms := map[string]bool{}
	for _, r := range runs {
		h := r.Handshake
		first := len(h.Methods) > 0 && h.Methods[0] == "server/discover"
		if a := r.Observation.ArmSaid(); a != "" {
			arms[a] = true
		}
		if first {
			probed++
		}
		if r.Row.Eras == lab.ModeBoth && r.Row.Fail == "" { // a failed probe is deriveFailures'
			dual++
			if first && h.DiscoverAnswer == "result" && !h.InitializeSent {
				discoverOnly++
			}
			if !first && h.InitializeSent {
				dualInit++
			}
		}
	}
	h := profiles.Handshake{ProbeStdio: len(runs) > 0 && probed == len(runs)}
	h.Note = fmt.Sprintf("%d of %d runs against a stdio server sent server/discover first", probed, len(runs))
	if probed == 0 {
		h.Note += "; all sent initialize at once"
	}
	if dual > 0 {
		h.Note += fmt.Sprintf("; against a server that answers both, %d of %d runs took the DiscoverResult and never sent initialize, %d sent initialize without a probe", discoverOnly, dual, dualInit)
	}
	h.Note += "."
	if len(arms) > 0 {
		a := sortedKeys(arms)
		h.Note += " Debug log: mcp runtime arm " + strings.Join(a, ", ") + "."
	}
	un := []string{"the handshake over Streamable HTTP (probe_http is false only because it was not measured)"}
	if len(runs) == 0 {
		un = append(un, "the handshake on stdio")
	}
	return h, un
}

// deriveStartup reads the runs whose server answered late: did the first
// model request wait for it?
func deriveStartup(runs []run) (profiles.Startup, []string) {
	type late struct {
		n, waited int
		text      int // of the waited runs, those whose first request held the text
		env       []string
		status    map[string]bool
		delay     string
	}
	rows := map[string]*late{}
	for _, r := range runs {
		d := r.Row.InitDelay
		if d == 0 {
			d = r.Row.DiscoverDelay
		}
		if d == 0 {
			continue
		}
		l := rows[r.Row.Name]
		if l == nil {
			l = &late{status: map[string]bool{}, delay: d.String()}
			for k, v := range r.Row.Env {
				l.env = append(l.env, k+"="+v)
			}
			sort.Strings(l.env)
			rows[r.Row.Name] = l
		}
		l.n++
		if r.First.Best() != nil || !r.Handshake.Ready.IsZero() && r.First != nil && r.Handshake.Ready.Before(r.First.Time) {
			l.waited++
			if r.First.Best() != nil {
				l.text++
			}
		}
		if s := r.Observation.ServerStatus; s != "" {
			l.status[s] = true
		}
	}
	if len(rows) == 0 {
		return profiles.Startup{}, []string{"how long it waits for a slow server"}
	}
	var notes []string
	var waited *bool // from the rows that set nothing but the delay
	var held string
	for _, name := range sortedKeys(keysOf(rows)) {
		l := rows[name]
		with := "nothing else set"
		if len(l.env) > 0 {
			with = strings.Join(l.env, " ")
		}
		what := "the first model request waited for it and held the text"
		if l.text < l.waited {
			what = "the first model request went out after the server was ready: it waited"
		}
		if l.waited == 0 {
			what = "the first model request went out without the text, so the wait was not taken"
		} else if l.waited < l.n {
			what = fmt.Sprintf("the first model request waited for it in %d of them", l.waited)
		}
		status := "not reported"
		if len(l.status) > 0 {
			status = strings.Join(sortedKeys(l.status), ", ") + " at start"
		}
		notes = append(notes, fmt.Sprintf("Row %s, the server's reply held %s with %s (%d runs): server status %s, %s.",
			name, l.delay, with, l.n, status, what))
		if len(l.env) == 0 && (waited == nil || !*waited || l.waited < l.n) {
			w := l.waited == l.n
			waited, held = &w, l.delay
		}
	}
	return profiles.Startup{Waited: waited, Held: held, Note: strings.Join(notes, " ")},
		[]string{"how long it waits for a slow server by default, and the setting that changes it (timeout_ms is 0: unknown)"}
}
