package runner

import (
	"syscall"
	"time"
)

// selfCPU is the CPU time this process has used, user and kernel.
func selfCPU() time.Duration {
	var created, exited, kernel, user syscall.Filetime
	self, err := syscall.GetCurrentProcess()
	if err != nil || syscall.GetProcessTimes(self, &created, &exited, &kernel, &user) != nil {
		return 0
	}
	// A Filetime counts 100-nanosecond intervals.
	ticks := func(f syscall.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration(ticks(kernel)+ticks(user)) * 100
}
