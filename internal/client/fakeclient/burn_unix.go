//go:build unix

package fakeclient

import (
	"syscall"
	"time"
)

// burnCPU spins until this process has used d of CPU time, so that a test
// knows a lower bound of what its process tree used.
func burnCPU(d time.Duration) {
	for x := 0; ; x++ {
		var r syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil || time.Duration(r.Utime.Nano()+r.Stime.Nano()) >= d {
			return
		}
		for i := 0; i < 1e6; i++ {
			x ^= i
		}
	}
}
