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

// treeMarkerVar is the environment variable that marks a server's processes.
const treeMarkerVar = "INSTRLAB_PROCESS_TREE"

// A ProcessTree is a started server's process and whatever it starts.
type ProcessTree struct {
	cmd    *exec.Cmd
	marker string // treeMarkerVar=value, as it appears in the environment
}

// PrepareTree sets cmd up, before it starts, to lead a tree of its own: a
// session of its own (Unix), death with its parent (Linux), and the marker
// in its environment (added to os.Environ() when cmd.Env is nil).
func PrepareTree(cmd *exec.Cmd) *ProcessTree {
	var b [12]byte
	rand.Read(b[:])
	t := &ProcessTree{cmd: cmd, marker: treeMarkerVar + "=" + hex.EncodeToString(b[:])}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, t.marker)
	setSession(cmd)
	return t
}

// Terminate sends SIGTERM to every process of the tree (Windows: kills the
// server).
func (t *ProcessTree) Terminate() { t.signal(false, t.members()) }

// Kill sends SIGKILL to every process of the tree.
func (t *ProcessTree) Kill() { t.signal(true, t.members()) }

// End ends every process of the tree still running: SIGTERM, grace to
// end, then SIGKILL; it returns the processes still running after that,
// named (see Survivors). A tree of which nothing is left (a server that
// exited by itself) is listed once. Otherwise the processes found are
// watched one by one until they are gone (a small file each where a
// listing reads every process of the machine), and the tree is listed
// again for any started meanwhile, which are signalled in turn.
func (t *ProcessTree) End(grace time.Duration) []string {
	if t.cmd.Process == nil {
		return nil
	}
	ms := t.members()
	if len(ms) == 0 {
		return nil
	}
	t.signal(false, ms)
	if ms = t.settle(ms, grace, false); len(ms) == 0 {
		return nil
	}
	t.signal(true, ms)
	return names(t.settle(ms, time.Second, true))
}

// Survivors names the processes of the tree still running, as
// "pid 123 (node)"; nil where they cannot be listed (not Linux).
func (t *ProcessTree) Survivors() []string { return names(t.members()) }

func names(ms []treeMember) []string {
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("pid %d (%s)", m.pid, m.name))
	}
	return out
}

// settle waits up to d for the processes ms, just signalled, to end. When
// they have, it lists the tree again and signals (SIGKILL when kill, else
// SIGTERM) what it finds, until the tree is empty or d has passed. It
// returns what is still running: of ms, or when kill, the whole tree
// listed.
func (t *ProcessTree) settle(ms []treeMember, d time.Duration, kill bool) []treeMember {
	deadline := time.Now().Add(d)
	for {
		if left := t.waitEnded(ms, deadline); len(left) > 0 {
			if kill {
				return t.members()
			}
			return left
		}
		ms = t.members()
		if len(ms) == 0 || !time.Now().Before(deadline) {
			return ms
		}
		t.signal(kill, ms)
	}
}

// waitEnded waits until the deadline for the processes ms to end,
// looking at them after 1 ms, then at doubling intervals up to 20 ms. It
// returns those still running.
func (t *ProcessTree) waitEnded(ms []treeMember, deadline time.Time) []treeMember {
	pause := time.Millisecond
	for {
		if ms = t.alive(ms); len(ms) == 0 {
			return nil
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return ms
		}
		time.Sleep(min(pause, wait))
		pause = min(2*pause, 20*time.Millisecond)
	}
}

// A treeMember is a live process of the tree.
type treeMember struct {
	pid   int
	name  string
	start uint64 // its start where the system tells (Linux), to tell it from a later process with its pid
}
