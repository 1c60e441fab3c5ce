package table

import (
	"encoding/json"
	"io"
)

// JSON writes v (a Table, or a value holding tables) as indented JSON.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
