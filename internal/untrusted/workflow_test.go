package untrusted

import (
	"regexp"
	"strings"
	"testing"
)

var percent = regexp.MustCompile(`%(25|0D|0A|3A|2C)`)

// FuzzWorkflow writes untrusted text as a workflow command's title and
// message and checks that the command stays one line that the runner
// parses as ours: no line break, no raw control or invisible character,
// no % the runner would decode into something else, no : or , that ends
// a property early; and that the runner's decoding gives the text back as
// EscapeLine shows it, line breaks restored.
func FuzzWorkflow(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		data, prop := WorkflowData(s), WorkflowProperty(s)
		cmd := "::warning title=" + prop + "::" + data
		shown(t, "workflow command", s, strings.TrimPrefix(cmd, "::"), false)
		if strings.ContainsAny(cmd, "\r\n") || strings.ContainsAny(prop, ":,") {
			t.Fatalf("workflow command for %q: %q", s, cmd)
		}
		if rest := percent.ReplaceAllString(data+prop, ""); strings.Contains(rest, "%") {
			t.Fatalf("workflow command for %q: a bare %% in %q", s, cmd)
		}
		// The runner decodes data: %0D, %0A, then %25 (ActionCommand.UnescapeData).
		decoded := strings.NewReplacer("%0D", "\r", "%0A", "\n", "%25", "%").Replace(data)
		if want := escapeBetweenBreaks(s); decoded != want {
			t.Fatalf("WorkflowData(%q) decodes to %q, want %q", s, decoded, want)
		}
	})
}

// escapeBetweenBreaks is s with the text between its CRs and LFs escaped
// by EscapeLine and the breaks kept.
func escapeBetweenBreaks(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			return b.String() + EscapeLine(s)
		}
		b.WriteString(EscapeLine(s[:i]) + s[i:i+1])
		s = s[i+1:]
	}
}
