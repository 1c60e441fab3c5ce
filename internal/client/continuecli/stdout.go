package continuecli

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// ParseStdout reads what "cn -p" printed on stdout: the model's answer as
// plain text. A read error is a warning "name: message".
func ParseStdout(r io.Reader, name string) (string, []string) {
	b, err := io.ReadAll(r)
	if err != nil {
		return strings.TrimSpace(string(b)), []string{name + ": " + err.Error()}
	}
	return strings.TrimSpace(string(b)), nil
}

// ParseStderr reads what "cn -p" printed on stderr: when a run fails, one
// JSON object {"status":"error","message":...}. It returns the last such
// message. Lines that are not JSON objects (Node's own warnings) are
// skipped; a line that starts like one and does not decode is a warning
// "name:line: message".
func ParseStderr(r io.Reader, name string) (string, []string) {
	var msg string
	w := jsonl.Lines(r, name, func(n int, line []byte) error {
		if line[0] != '{' {
			return nil
		}
		var e struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			return err
		}
		if e.Status == "error" {
			msg = e.Message
		}
		return nil
	})
	return msg, w
}
