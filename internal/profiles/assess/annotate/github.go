package annotate

import (
	"fmt"
	"io"
	"strings"

	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// githubLevel maps a finding's level to a workflow command.
var githubLevel = map[string]string{assess.Fail: "error", assess.Warn: "warning", assess.Info: "notice"}

// WriteGitHub writes one workflow command a finding
// (::error file=F,title=T::message), which GitHub Actions shows as an
// annotation. The file is the server's config file, when it came from one.
func WriteGitHub(w io.Writer, r assess.Report) error {
	for _, s := range r.Servers {
		for _, f := range s.Findings {
			level, ok := githubLevel[f.Level]
			if !ok {
				level = "warning"
			}
			var props []string
			if file := configFile(s.Target.Source); file != "" {
				props = append(props, "file="+githubProperty(file))
			}
			props = append(props, "title="+githubProperty(fmt.Sprintf("instrlab check: %s: %s", s.Target.Name, f.Code)))
			if _, err := fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), githubData(f.Text())); err != nil {
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
