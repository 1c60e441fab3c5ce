//go:build unix

package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestLeftoverTemp: CleanTemp removes the temporary directories of a
// runner that is gone and keeps those of running ones and foreign names.
func TestLeftoverTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(tmp, fmt.Sprintf("instrlab-jail-%d-123", dead.Process.Pid))
	kept := []string{
		filepath.Join(tmp, fmt.Sprintf("instrlab-run-%d-456", os.Getpid())), // this runner
		filepath.Join(tmp, fmt.Sprintf("instrlab-servers-%d-789", os.Getppid())),
		filepath.Join(tmp, "instrlab-jail-2834762345"), // an older name, no pid
		filepath.Join(tmp, fmt.Sprintf("other-jail-%d-1", dead.Process.Pid)),
	}
	for _, d := range append([]string{gone}, kept...) {
		if err := os.MkdirAll(filepath.Join(d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	own, err := TempDir(TempJail)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(own) != tmp {
		t.Errorf("TempDir made %s, not under TMPDIR %s", own, tmp)
	}
	CleanTemp()
	if _, err := os.Stat(gone); !os.IsNotExist(err) {
		t.Errorf("%s of a process that is gone stays (%v)", gone, err)
	}
	for _, d := range append(kept, own) {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}
