package analyze

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
)

// TestReadRecordEndless: a run's record that never ends (a link to
// /dev/zero in a directory given to report) is refused, read no further;
// on main it was once read whole, without end. A record past the limit
// is an error naming it.
func TestReadRecordEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", evidence.RunDir(dir).Record()); err != nil {
		t.Skip("no symlink:", err)
	}
	if _, err := ReadRecord(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadRecord of /dev/zero: %v, want it refused", err)
	}
	long := t.TempDir()
	f, err := os.Create(evidence.RunDir(long).Record())
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(maxFile + 1) // sparse: no disk
	f.Close()
	if _, err := ReadRecord(long); err == nil || !strings.Contains(err.Error(), "longer than 67108864 bytes") {
		t.Errorf("ReadRecord of a record past the limit: %v, want the limit", err)
	}
}

// TestReadRunFIFO: a FIFO in a run's directory (its record, its lab log)
// is refused at once, where reading it blocked until a second signal.
func TestReadRunFIFO(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{evidence.RunDir(dir).Record(), evidence.RunDir(dir).LabLog()} {
		if err := mkfifo(p); err != nil {
			t.Skip("no FIFO here:", err)
		}
	}
	done := make(chan [2]error, 1)
	go func() {
		_, err1 := ReadRecord(dir)
		_, _, err2 := ReadLabLog(evidence.RunDir(dir).LabLog())
		done <- [2]error{err1, err2}
	}()
	select {
	case errs := <-done:
		for _, err := range errs {
			if err == nil || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("a FIFO: %v, want it refused", err)
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO in a run's directory blocked")
	}
}
