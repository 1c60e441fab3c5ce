package annotate

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// githubLevel is the workflow command of a problem: error when it fails
// check or the model loses the server, a tool or every instruction,
// warning when degraded, else notice.
func githubLevel(sev loss.Severity, fails bool) string {
	switch {
	case fails || sev == loss.Broken:
		return "error"
	case sev == loss.Degraded:
		return "warning"
	}
	return "notice"
}

// WriteGitHub writes workflow commands that GitHub Actions shows as
// annotations, per server: a notice with its verdicts (how many clients
// work, are degraded, broken), then one command a problem, the worst
// first, naming the tools and the clients it holds for (a problem of one
// finding says all the finding says) and its fix. The file is the
// server's config file, when it came from one.
func WriteGitHub(w io.Writer, r assess.Report) error {
	for _, s := range r.Servers {
		var props []string
		if file := configFile(s.Target.Source); file != "" {
			props = append(props, "file="+githubProperty(file))
		}
		title := func(what string) string {
			return "title=" + githubProperty(fmt.Sprintf("instrlab check: %s: %s", s.Target.Name, what))
		}
		if len(s.Verdicts) > 0 {
			level, counts := "notice", assess.VerdictWords(s)
			if n := s.VerdictCounts(); n[loss.VerdictBroken] > 0 {
				level = "warning"
			}
			if _, err := fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(append(slices.Clone(props), title("verdicts")), ","), githubData(counts)); err != nil {
				return err
			}
		}
		for _, p := range s.Problems {
			msg := p.Said()
			if who := p.Whom(); who != "" {
				msg += " — " + who
			}
			if len(p.Findings) == 1 && p.Findings[0] < len(s.Findings) {
				msg = s.Findings[p.Findings[0]].Text() // one finding: all it says
			}
			if p.Fix != "" {
				msg += ". Fix: " + p.Fix
			}
			if _, err := fmt.Fprintf(w, "::%s %s::%s\n", githubLevel(p.Severity, p.Fails), strings.Join(append(slices.Clone(props), title(string(p.Code))), ","), githubData(msg)); err != nil {
				return err
			}
		}
	}
	return nil
}

// githubData and githubProperty are untrusted's workflow command escapers.
var (
	githubData     = untrusted.WorkflowData
	githubProperty = untrusted.WorkflowProperty
)
