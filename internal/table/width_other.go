//go:build !unix && !windows

package table

import "os"

// terminalWidth is 0: no terminal is known here.
func terminalWidth(*os.File) int { return 0 }
