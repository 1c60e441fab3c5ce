package table

import (
	"io"

	"github.com/instrlab/instrlab/internal/untrusted"
)

// JSON writes v (a Table, or a value holding tables) as indented JSON,
// through untrusted.JSON: valid UTF-8 whatever a server sent, nothing raw
// to show when printed.
func JSON(w io.Writer, v any) error { return untrusted.JSON(w, v) }
