package analyze

import (
	"os"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/evidence"
)

// TestReadRecordEndless: a run's record that never ends (a link to
// /dev/zero in a directory given to report) is an error naming the
// limit, read no further; on main it was read whole, without end.
func TestReadRecordEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", evidence.RunDir(dir).Record()); err != nil {
		t.Skip("no symlink:", err)
	}
	if _, err := ReadRecord(dir); err == nil || !strings.Contains(err.Error(), "longer than 67108864 bytes") {
		t.Errorf("ReadRecord of /dev/zero: %v, want the limit", err)
	}
}
