package annotate

import "strings"

// configFile is the file of a target's Source ("path (scope)"), or "".
func configFile(source string) string {
	if i := strings.LastIndex(source, " ("); i > 0 && strings.HasSuffix(source, ")") {
		return source[:i]
	}
	return source
}
