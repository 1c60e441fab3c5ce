package testutil

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/instrlab/instrlab/lab"
)

// LabLog parses the message log at path that "instrlab serve lab" (or the
// proxy) wrote, and returns its messages: every entry after the serving
// process's start, which must come first.
func LabLog(t testing.TB, path string) []lab.Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var entries []lab.Entry
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var e lab.Entry
		if err := json.Unmarshal(line, &e); err != nil {
			t.Fatalf("%s:%d: %v", path, i+1, err)
		}
		entries = append(entries, e)
	}
	// Every log begins with the serving process's start (lab.KindStart),
	// stamped no later than what follows; the rest are the messages. A log
	// that several processes share (check's two eras at once) holds a start
	// each, and their lines interleave: one process's start may be stamped
	// after another's first line, so the order is checked for a log of one
	// process only.
	if len(entries) == 0 || entries[0].Dir != lab.ServerDir || entries[0].Kind != lab.KindStart {
		t.Fatalf("%s: the log does not begin with the server's start entry: %+v", path, entries)
	}
	starts := 0
	for _, e := range entries {
		if e.Dir == lab.ServerDir && e.Kind == lab.KindStart {
			starts++
		}
	}
	if starts == 1 && len(entries) > 1 && entries[0].Time.After(entries[1].Time) {
		t.Errorf("%s: start %v after the first entry %v", path, entries[0].Time, entries[1].Time)
	}
	return entries[1:]
}
