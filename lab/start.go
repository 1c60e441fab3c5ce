package lab

import "time"

// How the time of a start entry was read (its Note).
const (
	// StartKernel is the process's start as the kernel recorded it (the
	// fork, before the executable was even loaded), to 10 ms.
	StartKernel = "process start (kernel)"
	// StartMain is the time the program's main began: later than the
	// process's start by the time to load it, which a loaded machine
	// stretches.
	StartMain = "process start (main)"
)

// ProcessStart is when this process started, and how that was read: the
// kernel's record where the system keeps one readable (Linux), else now,
// which a caller takes at the start of main.
func ProcessStart() (time.Time, string) {
	if t, ok := kernelStart(time.Now()); ok {
		return t, StartKernel
	}
	return time.Now(), StartMain
}
