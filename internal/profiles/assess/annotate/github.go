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

// githubData escapes a command's message: %, CR and LF, as GitHub's
// toolkit does; other control characters are escaped as check escapes
// them for a terminal.
func githubData(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
	return untrusted.EscapeLine(s)
}

// githubProperty escapes a property value: as data, and : and , too.
func githubProperty(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
	return untrusted.EscapeLine(s)
}
