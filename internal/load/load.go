// Package load reads how loaded the machine is, so that a run records the
// load it ran under and the runner can hold back work when the machine is
// too loaded to keep a server's start-up well under the waits it measures.
// A timing measured on a loaded machine is a race, not a client's
// behaviour: the load beside it says which.
package load

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// A Sample is the machine's load at one moment.
type Sample struct {
	// One is the one-minute load average: the runnable and
	// uninterruptible tasks, averaged.
	One float64 `json:"one"`
	// CPUs is the number of CPUs the process may use.
	CPUs int `json:"cpus"`
}

// PerCPU is the load average per CPU: above 1, tasks wait for a CPU.
func (s Sample) PerCPU() float64 { return s.One / float64(max(s.CPUs, 1)) }

func (s Sample) String() string { return fmt.Sprintf("load average %.2f on %d CPUs", s.One, s.CPUs) }

// loadavgPath is read by Now; a test may point it elsewhere.
var loadavgPath = "/proc/loadavg"

// Now reads the load average where the system tells it (/proc/loadavg);
// ok is false elsewhere, and the load is then not measured.
func Now() (Sample, bool) {
	b, err := os.ReadFile(loadavgPath)
	if err != nil {
		return Sample{}, false
	}
	return parse(b)
}

// parse reads the first field of /proc/loadavg.
func parse(b []byte) (Sample, bool) {
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return Sample{}, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 {
		return Sample{}, false
	}
	return Sample{One: v, CPUs: runtime.GOMAXPROCS(0)}, true
}

// Text is the load now as a phrase for a note, "load average 2.05 on 2
// CPUs", or "load average not measured".
func Text() string {
	if s, ok := Now(); ok {
		return s.String()
	}
	return "load average not measured"
}
