package jsonl

import (
	"fmt"
	"io"
	"regexp"
)

// Matching returns the lines of a text log that match re, as
// "name:line: text", each cut to 300 bytes: how the client parsers pick a
// log's MCP warnings and errors. A line too long to read is a warning too.
func Matching(r io.Reader, name string, re *regexp.Regexp) []string {
	var out []string
	w := Lines(r, name, func(n int, b []byte) error {
		if re.Match(b) {
			if len(b) > 300 {
				b = b[:300]
			}
			out = append(out, fmt.Sprintf("%s:%d: %s", name, n, b))
		}
		return nil
	})
	return append(w, out...)
}
