package evidence

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRunsSkipsTheClientsOwnDirs(t *testing.T) {
	out := OutDir(t.TempDir())
	a := out.Run("fake@1", "en-1000", 1)
	b := out.Run("fake@1", "en-1000", 2)
	for _, p := range []string{a.Record(), b.Record(), b.Home("proj", RecordFile), out.Run("fake@1", "x", 1).Stdout()} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := out.Runs()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]RunDir{a, b}, got); diff != "" {
		t.Errorf("runs mismatch (-want +got):\n%s", diff)
	}
	if got, want := a.Rel(a.Requests()), RequestsFile; got != want {
		t.Errorf("Rel(Requests()) = %q, want %q", got, want)
	}
	if got, want := string(a), filepath.Join(string(out), "fake@1", "en-1000", "1"); got != want {
		t.Errorf("Run = %q, want %q", got, want)
	}
}
