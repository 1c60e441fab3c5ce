package lab

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

func parseLog(t *testing.T, data []byte) []Entry {
	t.Helper()
	var entries []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("log line %d: %v: %s", n, err, sc.Bytes())
		}
		entries = append(entries, e)
	}
	return entries
}
