package table

import (
	"fmt"
	"slices"
	"strings"
)

// Formats is the list of -format values one output can be printed in. The
// package that renders an output owns its list; commands take their help
// text and their usage errors from it.
type Formats []string

// String lists the formats for a person: "md, csv or json".
func (f Formats) String() string {
	if len(f) < 2 {
		return strings.Join(f, "")
	}
	return strings.Join(f[:len(f)-1], ", ") + " or " + f[len(f)-1]
}

// Check returns a usage message naming the -format flag when format is not
// one of f.
func (f Formats) Check(format string) error {
	if !slices.Contains(f, format) {
		return fmt.Errorf("-format %q: want %s", format, f)
	}
	return nil
}
