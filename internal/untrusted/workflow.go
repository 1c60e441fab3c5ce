package untrusted

import "strings"

// WorkflowData escapes the message of a GitHub workflow command
// (::error title=T::MESSAGE): each of its lines escaped as EscapeLine
// escapes it, so no control or invisible character reaches the log as it
// is, then %, CR and LF percent-encoded as GitHub's toolkit encodes them
// (the runner decodes them, so a message may have several lines).
func WorkflowData(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			b.WriteString(percentData.Replace(EscapeLine(s)))
			return b.String()
		}
		b.WriteString(percentData.Replace(EscapeLine(s[:i])) + percentData.Replace(s[i:i+1]))
		s = s[i+1:]
	}
}

// WorkflowProperty escapes a property value of a workflow command
// (file=F,title=T): escaped as EscapeLine escapes it, then %, and the :
// and , that would end the value, percent-encoded.
func WorkflowProperty(s string) string {
	return percentProperty.Replace(EscapeLine(s))
}

var (
	percentData     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	percentProperty = strings.NewReplacer("%", "%25", ":", "%3A", ",", "%2C")
)
