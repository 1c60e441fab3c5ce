//go:build !unix

package bench

import (
	"errors"
	"os"
)

// maxRSSOf is unknown where there is no getrusage.
func maxRSSOf(*os.ProcessState) int64 { return 0 }

func highWaterMark(int) (int64, error) { return 0, errors.New("no /proc") }
