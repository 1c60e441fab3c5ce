package client

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// Read opens the evidence file rel of the run dir and hands it to parse,
// which returns its warnings. The file is listed in o.Files; a file that
// cannot be opened becomes a warning, never an error.
func (o *Observation) Read(dir, rel string, parse func(r io.Reader, name string) []string) {
	f, err := jsonl.Open(filepath.Join(dir, rel))
	if err != nil {
		// The path is the run's own: say only what went wrong, so the
		// warning reads the same wherever the evidence directory is.
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		o.Warnings = append(o.Warnings, fmt.Sprintf("%s: %v", rel, err))
		return
	}
	defer f.Close()
	o.Files = append(o.Files, rel)
	o.Warnings = append(o.Warnings, parse(f, rel)...)
}
