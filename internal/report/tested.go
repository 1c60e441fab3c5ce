package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// WriteTested writes the "tested with" table of a run of users' servers,
// for a server's README: per client (and server, when the run had
// several) the version the run tested, linking to link (where the run's
// evidence is kept, as a workflow run's page) when link is an https
// URL; the verdict and what decides it; and the day of its first model
// request (UTC), "not measured" when none was made. Server text is
// escaped as untrusted.Markdown escapes it. A run of the lab alone has
// no verdicts: that is an error, not an empty table.
func (r *Report) WriteTested(w io.Writer, link string) error {
	vs := Verdicts(r.g.results)
	if len(vs) == 0 {
		return fmt.Errorf("-format tested: the run has no verdicts (it ran no server of yours: run -server or -config)")
	}
	servers := map[string]bool{}
	for _, v := range vs {
		servers[v.Server] = true
	}
	var b strings.Builder
	b.WriteString("### Tested with\n\n")
	if len(servers) > 1 {
		b.WriteString("| client | version | server | verdict | tested |\n|---|---|---|---|---|\n")
	} else {
		b.WriteString("| client | version | verdict | tested |\n|---|---|---|---|\n")
	}
	for _, v := range vs {
		name, ver, _ := strings.Cut(v.Client, "@")
		if v.Arm != "" {
			name += " [arm " + v.Arm + "]"
		}
		verdict := string(v.Verdict)
		if d := v.Decides(); d != "" {
			verdict += ": " + d
		}
		b.WriteString("| " + untrusted.Markdown(name) + " | " + untrusted.MarkdownLink(ver, link) + " | ")
		if len(servers) > 1 {
			b.WriteString(untrusted.Markdown(v.Server) + " | ")
		}
		b.WriteString(untrusted.Markdown(verdict) + " | " + testedOn(r.g.results, v) + " |\n")
	}
	b.WriteString("\nMeasured by [instrlab](https://github.com/instrlab/instrlab) `run`: each client run for real, offline, against a fake model API; the verdict from the requests it sent (broken: the model lost the server, a tool or every instruction; degraded: a part).\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// testedOn is the UTC day of the first model request of v's runs.
func testedOn(results []analyze.Result, v Verdict) string {
	var first time.Time
	for _, r := range results {
		if r.Row != v.Server || r.Client != v.Client || len(r.Requests) == 0 {
			continue
		}
		if t := r.Requests[0].Time; !t.IsZero() && (first.IsZero() || t.Before(first)) {
			first = t
		}
	}
	if first.IsZero() {
		return "not measured"
	}
	return first.UTC().Format(time.DateOnly)
}
