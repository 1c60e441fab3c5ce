package lab

import (
	"bytes"
	"math"
	"os"
	"strconv"
	"time"
)

// userHZ is the unit of /proc's process times: USER_HZ, 100 on every
// architecture Linux runs Go on.
const userHZ = 100

// kernelStart reads this process's start from /proc: its start in clock
// ticks since boot (/proc/self/stat, field 22) against the time since boot
// now (/proc/uptime).
func kernelStart(now time.Time) (time.Time, bool) {
	stat, err1 := os.ReadFile("/proc/self/stat")
	up, err2 := os.ReadFile("/proc/uptime")
	if err1 != nil || err2 != nil {
		return time.Time{}, false
	}
	return startFrom(stat, up, now)
}

// startFrom is kernelStart's arithmetic over the two files' contents.
func startFrom(stat, uptime []byte, now time.Time) (time.Time, bool) {
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses: the fields after it follow the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return time.Time{}, false
	}
	f := bytes.Fields(stat[i+1:])
	// Field 3 (state) is f[0], so field 22 (starttime) is f[19].
	if len(f) < 20 {
		return time.Time{}, false
	}
	ticks, err := strconv.ParseUint(string(f[19]), 10, 64)
	u := bytes.Fields(uptime)
	if err != nil || len(u) == 0 {
		return time.Time{}, false
	}
	secs, err := strconv.ParseFloat(string(u[0]), 64)
	if err != nil {
		return time.Time{}, false
	}
	// Both count hundredths of a second: subtract in ticks.
	since := time.Duration(math.Round(secs*userHZ)-float64(ticks)) * (time.Second / userHZ)
	if since < 0 || since > 24*time.Hour {
		return time.Time{}, false
	}
	return now.Add(-since), true
}
