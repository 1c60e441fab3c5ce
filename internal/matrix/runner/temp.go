package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Kinds of the runner's temporary directories, for TempDir and CleanTemp.
const (
	TempJail    = "jail"    // a jail's socket directory
	TempRun     = "run"     // the evidence of a run without -out
	TempServers = "servers" // the commands of -server and -config
)

// TempDir makes a temporary directory instrlab-KIND-PID-*, its name
// carrying this process's pid, so that CleanTemp in a later run can tell
// a killed runner's leftovers from a running one's.
func TempDir(kind string) (string, error) {
	return os.MkdirTemp("", fmt.Sprintf("instrlab-%s-%d-", kind, os.Getpid()))
}

// CleanTemp removes the temporary directories TempDir made for runners
// that are no longer running (killed before they could remove them).
// Where liveness cannot be told (proc_other.go) it removes nothing.
func CleanTemp() {
	for _, kind := range []string{TempJail, TempRun, TempServers} {
		prefix := "instrlab-" + kind + "-"
		matches, _ := filepath.Glob(filepath.Join(os.TempDir(), prefix+"*-*"))
		for _, m := range matches {
			p, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(m), prefix), "-")
			pid, err := strconv.Atoi(p)
			if !ok || err != nil || pid <= 0 || pid == os.Getpid() || alive(pid) {
				continue
			}
			os.RemoveAll(m)
		}
	}
}
