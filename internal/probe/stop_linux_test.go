package probe

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestStopExitOnEOF: a server that exits at the end of its input exits by
// itself when stop closes it (status 0, no signal), and the daemon it
// started in a session of its own is ended all the same.
func TestStopExitOnEOF(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	pidFile := filepath.Join(t.TempDir(), "pid")
	tg := testServer(t, "eof-daemon "+pidFile)
	tg.Env["GORACE"] = "atexit_sleep_ms=0" // go test -race: exit at once
	p, err := spawn(tg)
	if err != nil {
		t.Fatal(err)
	}
	var daemon int
	for deadline := time.Now().Add(5 * time.Second); daemon == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			p.stop()
			t.Fatal("the server wrote no daemon pid")
		}
		b, _ := os.ReadFile(pidFile)
		daemon, _ = strconv.Atoi(string(b))
	}
	defer syscall.Kill(daemon, syscall.SIGKILL)
	p.stop()
	ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() || ws.ExitStatus() != 0 {
		t.Errorf("the server ended with %v, want exit status 0 of its own", p.cmd.ProcessState)
	}
	if runningPid(daemon) {
		t.Errorf("the daemon (pid %d) survived stop", daemon)
	}
}

// TestStopDeaf: a server that ignores the end of its input and SIGTERM is
// killed, after eofGrace and no more than End's bound.
func TestStopDeaf(t *testing.T) {
	p, err := spawn(testServer(t, "deaf"))
	if err != nil {
		t.Fatal(err)
	}
	<-p.lines // it has set its signals up
	start := time.Now()
	p.stop()
	took := time.Since(start)
	ws := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Errorf("the server ended with %v, want SIGKILL", p.cmd.ProcessState)
	}
	if took < eofGrace || took > eofGrace+2*time.Second {
		t.Errorf("stop took %v, want eofGrace (%v) and a kill", took, eofGrace)
	}
}

// runningPid reports a process that is neither gone nor a zombie.
func runningPid(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || len(b) < i+3 || (b[i+2] != 'Z' && b[i+2] != 'X')
}
