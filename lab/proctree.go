package lab

// A server's process tree: PrepareTree starts a server so that everything
// it starts can be ended with it, and names what survives. On Unix the
// server leads a session (and so a process group) of its own; every
// process it starts carries a marker in its environment. Ending the tree
// signals the group and, where processes can be listed (Linux, from
// /proc), every process of the session or carrying the marker: a daemon
// that left with setsid keeps its environment, and so is found. What
// survives (another user's process, one that cleared its environment and
// left the session) is named by Survivors where it can be seen; elsewhere
// what survives is not measured. ServeCommand and check's probe use it.

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// TreeMarkerVar is the environment variable that marks a server's processes.
const TreeMarkerVar = "INSTRLAB_PROCESS_TREE"

// A ProcessTree is a started server's process and whatever it starts.
type ProcessTree struct {
	cmd    *exec.Cmd
	marker string // TreeMarkerVar=value, as it appears in the environment
}

// PrepareTree sets cmd up, before it starts, to lead a tree of its own: a
// session of its own (Unix), death with its parent (Linux), and the marker
// in its environment (added to os.Environ() when cmd.Env is nil).
func PrepareTree(cmd *exec.Cmd) *ProcessTree {
	var b [12]byte
	rand.Read(b[:])
	t := &ProcessTree{cmd: cmd, marker: TreeMarkerVar + "=" + hex.EncodeToString(b[:])}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, t.marker)
	setSession(cmd)
	return t
}

// Terminate sends SIGTERM to every process of the tree (Windows: kills the
// server).
func (t *ProcessTree) Terminate() { t.signal(false) }

// Kill sends SIGKILL to every process of the tree.
func (t *ProcessTree) Kill() { t.signal(true) }

// End ends every process of the tree still running: SIGTERM, grace to
// end, then SIGKILL; it returns the processes still running after that,
// named (see Survivors).
func (t *ProcessTree) End(grace time.Duration) []string {
	if t.cmd.Process == nil {
		return nil
	}
	if len(t.members()) == 0 {
		return nil
	}
	t.Terminate()
	if t.waitGone(grace) {
		return nil
	}
	t.Kill()
	t.waitGone(time.Second)
	return t.Survivors()
}

// Survivors names the processes of the tree still running, as
// "pid 123 (node)"; nil where they cannot be listed (not Linux).
func (t *ProcessTree) Survivors() []string {
	var out []string
	for _, m := range t.members() {
		out = append(out, fmt.Sprintf("pid %d (%s)", m.pid, m.name))
	}
	return out
}

// waitGone waits up to d for the tree's processes to end.
func (t *ProcessTree) waitGone(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		if len(t.members()) == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A treeMember is a live process of the tree.
type treeMember struct {
	pid  int
	name string
}
