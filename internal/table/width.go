package table

import (
	"io"
	"os"
	"strconv"
)

// Width is the width to wrap text written to w to: $COLUMNS when it is
// set to a positive number (as a shell sets it for the terminal's width),
// else the terminal's width when w is a terminal, else DefaultWidth.
func Width(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := w.(*os.File); ok {
		if n := terminalWidth(f); n > 0 {
			return n
		}
	}
	return DefaultWidth
}
