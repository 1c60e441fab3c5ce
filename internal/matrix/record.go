package matrix

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
)

// The lab server's name in client configs, and a run's statuses. The
// files of a run's evidence are named by evidence.RunDir.
const (
	ServerName  = "lab"
	statusOK    = "ok"
	statusFail  = "failed"
	statusAbort = "interrupted"
)

// A Record is what the runner knows of one run: what was asked, and how the
// client process ended. It is written to RecordFile when the run ends.
type Record struct {
	Client client.Spec `json:"client"`
	Row    Row         `json:"row"` // resolved
	Repeat int         `json:"repeat"`
	// Status is ok or failed; Reason says why a run failed (timeout,
	// exit status, signal, a runner error).
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Netns is set when the client ran in a loopback-only network
	// namespace, with the names it asked in DNSLogFile.
	Netns bool `json:"netns,omitempty"`
	// Live is set when the fake forwarded to a real API.
	Live     bool      `json:"live,omitempty"`
	Upstream string    `json:"upstream,omitempty"`
	Start    time.Time `json:"start"`
	// SetupMS, ClientMS and TeardownMS split the run's wall time: before
	// the client started, the client process, and after it ended.
	SetupMS    float64 `json:"setup_ms"`
	ClientMS   float64 `json:"client_ms"`
	TeardownMS float64 `json:"teardown_ms"`
	ExitCode   int     `json:"exit_code"`
	// Binary is the client executable; Cmd its arguments.
	Binary string   `json:"binary,omitempty"`
	Args   []string `json:"args,omitempty"`
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", filepath.Base(path), err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp, path)
}

// ReadRecord reads the record of a run dir.
func ReadRecord(dir string) (Record, error) {
	var r Record
	path := evidence.RunDir(dir).Record()
	b, err := os.ReadFile(path)
	if err != nil {
		return r, fmt.Errorf("reading run record: %w", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}
