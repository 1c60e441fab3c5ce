//go:build windows

package table

import (
	"os"

	"golang.org/x/sys/windows"
)

// terminalWidth is f's console's width in columns, 0 when f is not a
// console.
func terminalWidth(f *os.File) int {
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(windows.Handle(f.Fd()), &info); err != nil {
		return 0
	}
	return int(info.Window.Right-info.Window.Left) + 1
}
