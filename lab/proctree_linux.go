package lab

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

func setSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// signal sends SIGTERM (SIGKILL when kill) to the server's process group
// and to each of ms.
func (t *ProcessTree) signal(kill bool, ms []treeMember) {
	if t.cmd.Process == nil {
		return
	}
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	syscall.Kill(-t.cmd.Process.Pid, sig)
	for _, m := range ms {
		syscall.Kill(m.pid, sig)
	}
}

// members lists, from /proc, the live processes (not zombies) of the
// server's session or process group, or carrying its marker. A process
// that started before this one cannot be of the tree, so only the
// environment of younger processes is read: on a machine with many
// processes, that is what a listing costs.
func (t *ProcessTree) members() []treeMember {
	if t.cmd.Process == nil {
		return nil
	}
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	leader := []byte(strconv.Itoa(t.cmd.Process.Pid))
	marker := []byte(t.marker)
	self, since := os.Getpid(), selfStart()
	buf := make([]byte, 1024)
	var env []byte
	var out []treeMember
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == self {
			continue
		}
		st, ok := readStat(pid, buf)
		if !ok || st.start < since {
			continue
		}
		in := bytes.Equal(st.pgrp, leader) || bytes.Equal(st.session, leader)
		if !in && !st.kernel {
			env = readEnviron(name, env[:0])
			in = hasVar(env, marker)
		}
		if in {
			out = append(out, treeMember{pid: pid, name: st.name, start: st.start})
		}
	}
	return out
}

// readEnviron appends the environment of process pid to buf. A process
// in the middle of an exec shows an empty one for a moment (its new
// memory has no environment yet): a daemon that leaves with setsid and
// execs would be missed then, so an empty environment is read again, a
// millisecond apart, a few times.
func readEnviron(pid string, buf []byte) []byte {
	path := "/proc/" + pid + "/environ"
	for range 5 {
		if env := readProc(path, buf); len(env) > len(buf) {
			return env
		}
		time.Sleep(time.Millisecond)
	}
	return buf
}

// alive returns those of ms still running: the same process (by its start),
// not a zombie. It reads one small file a process, not the whole of /proc.
func (t *ProcessTree) alive(ms []treeMember) []treeMember {
	var out []treeMember
	buf := make([]byte, 1024)
	for _, m := range ms {
		if st, ok := readStat(m.pid, buf); ok && st.start == m.start {
			out = append(out, m)
		}
	}
	return out
}

// A procStat is what members reads of /proc/PID/stat.
type procStat struct {
	name          string
	pgrp, session []byte // in buf
	start         uint64 // clock ticks after boot
	kernel        bool   // a kernel thread: no environment, never of a tree
}

// readStat reads /proc/pid/stat into buf; ok is false when the process is
// gone, a zombie or unreadable.
func readStat(pid int, buf []byte) (procStat, bool) {
	stat := readProc("/proc/"+strconv.Itoa(pid)+"/stat", buf[:0])
	return parseStat(stat)
}

// parseStat reads pid (comm) state ppid pgrp session ... starttime (field
// 22); comm may hold ") ". ok is false for a zombie or a dead process.
func parseStat(stat []byte) (procStat, bool) {
	open, close := bytes.IndexByte(stat, '('), bytes.LastIndexByte(stat, ')')
	if open < 0 || close < open {
		return procStat{}, false
	}
	// Field 3 (state) is f[0], so field 22 (starttime) is f[19].
	var f [20][]byte
	rest := stat[close+1:]
	for i := range f {
		rest = bytes.TrimLeft(rest, " ")
		end := bytes.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		f[i], rest = bytes.TrimRight(rest[:end], "\n"), rest[end:]
	}
	if len(f[19]) == 0 || string(f[0]) == "Z" || string(f[0]) == "X" {
		return procStat{}, false
	}
	start, err := strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return procStat{}, false
	}
	flags, _ := strconv.ParseUint(string(f[6]), 10, 64) // field 9
	const pfKthread = 0x00200000
	return procStat{name: string(stat[open+1 : close]), pgrp: f[2], session: f[3], start: start, kernel: flags&pfKthread != 0}, true
}

// selfStart is this process's start in clock ticks after boot, 0 when
// /proc does not tell.
var selfStart = sync.OnceValue(func() uint64 {
	st, ok := readStat(os.Getpid(), make([]byte, 1024))
	if !ok {
		return 0
	}
	return st.start
})

// readProc appends the contents of a /proc file to buf. It uses the system
// calls directly: os.ReadFile's stat and poller registration cost more
// than the read of a small file, times every process of the machine.
func readProc(path string, buf []byte) []byte {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return buf
	}
	defer syscall.Close(fd)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 || err != nil {
			return buf
		}
		buf = buf[:len(buf)+n]
	}
}

// hasVar reports whether env, a NUL-separated environment, holds v.
func hasVar(env, v []byte) bool {
	for len(env) > 0 {
		i := bytes.IndexByte(env, 0)
		if i < 0 {
			i = len(env)
		}
		if bytes.Equal(env[:i], v) {
			return true
		}
		env = env[min(i+1, len(env)):]
	}
	return false
}
