package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
)

// ProcessCPU is the CPU time, user and system, of an ended process and of
// the descendants it waited for, as the system reports them when the
// process is waited for (wait4's rusage on unix; on Windows the process
// alone); 0 for a process that never ran.
func ProcessCPU(ps *os.ProcessState) time.Duration {
	if ps == nil {
		return 0
	}
	return ps.UserTime() + ps.SystemTime()
}

// writeJSON writes v to path whole or not at all: to a temporary file,
// synced, then renamed over path, so that a crash or a full disk leaves the
// old file or the new one on disk, never a torn one.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", filepath.Base(path), err)
	}
	if err := writeSynced(path, append(b, '\n')); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// failWrite, set by tests, fails the writes of the paths it returns an
// error for, as a full disk would.
var failWrite func(path string) error

func writeSynced(path string, data []byte) error {
	if failWrite != nil {
		if err := failWrite(path); err != nil {
			return err
		}
	}
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if serr := f.Sync(); err == nil {
		err = serr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// syncDir makes a rename in dir durable where the system can sync a
// directory (not Windows).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// syncEvidence flushes the evidence files of a run dir (the lab's log, the
// recorded requests, the client's output and configs) to disk, so that the
// record summarising them is never on disk before them.
func syncEvidence(d evidence.RunDir) error {
	for _, dir := range []string{string(d), d.API(), d.Client()} {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			f, err := os.Open(filepath.Join(dir, e.Name()))
			if err != nil {
				return err
			}
			err = f.Sync()
			f.Close()
			if err != nil && runtime.GOOS != "windows" { // Windows syncs only handles open for writing
				return fmt.Errorf("syncing %s: %w", d.Rel(filepath.Join(dir, e.Name())), err)
			}
		}
		syncDir(dir)
	}
	return nil
}
