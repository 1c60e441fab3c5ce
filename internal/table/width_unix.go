//go:build unix

package table

import (
	"os"

	"golang.org/x/sys/unix"
)

// terminalWidth is f's terminal's width in columns, 0 when f is not a
// terminal.
func terminalWidth(f *os.File) int {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
