package main

import (
	"encoding/json"
	"io"
)

// writeJSON writes v to w as indented JSON, the -json output of every
// command.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
