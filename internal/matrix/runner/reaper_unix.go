//go:build unix

package runner

import (
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
)

// reaperScript keeps the process groups the runner names on its stdin,
// "+ PGID" when a client starts and "- PGID" when the runner has ended
// its group, and kills the groups still named when its stdin closes. The
// kernel closes that pipe however the runner ends, kill -9 included, when
// a client's Pdeathsig ends the client alone: what the client started in
// its group (a shell of its Bash tool, a server it did not stop) would
// outlive it.
const reaperScript = `groups=" "
while read -r op g; do
  case "$op" in
  +) groups="$groups$g " ;;
  -) groups=$(printf '%s' "$groups" | sed "s/ $g / /") ;;
  esac
done
for g in $groups; do kill -KILL -$g 2>/dev/null; done
exit 0`

// A reaper is the runner's watch over its clients' process groups: a
// shell in a process group of its own (so a terminal's Ctrl-C does not
// end it before it acts) that outlives the runner (reaperScript).
type reaper struct {
	mu  sync.Mutex
	in  io.WriteCloser
	cmd *exec.Cmd
}

// startReaper starts the reaper, or returns nil (no sh; the runner still
// ends every group it started whenever it is not killed outright).
func startReaper() *reaper {
	cmd := exec.Command("/bin/sh", "-c", reaperScript)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	in, err := cmd.StdinPipe()
	if err != nil || cmd.Start() != nil {
		return nil
	}
	return &reaper{in: in, cmd: cmd}
}

func (r *reaper) say(op string, pgid int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.in, "%s %d\n", op, pgid)
}

// add names a client's process group, when it has started.
func (r *reaper) add(pgid int) { r.say("+", pgid) }

// done takes it back, once the runner has ended the group itself.
func (r *reaper) done(pgid int) { r.say("-", pgid) }

// close ends the reaper at the end of a run: the groups still named (none,
// when every run ended) are killed, and the shell exits.
func (r *reaper) close() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.in.Close()
	r.cmd.Wait()
}
