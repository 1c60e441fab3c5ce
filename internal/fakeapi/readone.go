package fakeapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// ReadRequest reads the recorded request with sequence number seq from a
// requests file, decoding that line only (a recorder writes "seq" first);
// a file written otherwise is read whole.
func ReadRequest(path string, seq int) (Request, error) {
	f, err := os.Open(path)
	if err != nil {
		return Request{}, fmt.Errorf("opening recorded requests: %w", err)
	}
	defer f.Close()
	prefix := []byte(`{"seq":` + strconv.Itoa(seq) + `,`)
	var q Request
	found := false
	jsonl.Lines(f, path, func(n int, line []byte) error {
		if found || !bytes.HasPrefix(line, prefix) {
			return nil
		}
		if json.Unmarshal(line, &q) == nil && q.Seq == seq {
			found = true
		}
		return nil
	})
	if found {
		return q, nil
	}
	reqs, _, err := ReadRequests(path)
	if err != nil {
		return Request{}, err
	}
	for _, q := range reqs {
		if q.Seq == seq {
			return q, nil
		}
	}
	return Request{}, fmt.Errorf("%s: no request %d", path, seq)
}
