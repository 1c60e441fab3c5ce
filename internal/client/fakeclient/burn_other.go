//go:build !unix

package fakeclient

import "time"

// burnCPU spins for d of wall time where a process's CPU time is not read
// here (Windows): at most d of CPU.
func burnCPU(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}
