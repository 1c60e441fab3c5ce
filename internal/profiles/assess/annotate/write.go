package annotate

import (
	"fmt"
	"io"

	"github.com/instrlab/instrlab/schema"

	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// Formats are the formats check prints its report in: text for people
// (assess.WriteText), json (the Report itself), github (workflow
// annotations) and sarif (SARIF 2.1.0 for code scanning).
var Formats = table.Formats{"text", "json", "github", "sarif"}

// Write prints rep in one of Formats. text says how much the text
// format prints; version is instrlab's own, named in SARIF.
func Write(w io.Writer, rep assess.Report, format string, text assess.TextOptions, version string) error {
	switch format {
	case "text":
		return assess.WriteText(w, rep, text)
	case "json":
		if err := untrusted.JSON(w, schema.Named(schema.Check, rep)); err != nil {
			return fmt.Errorf("encoding the report: %w", err)
		}
		return nil
	case "github":
		return WriteGitHub(w, rep)
	case "sarif":
		return WriteSARIF(w, rep, version)
	}
	return Formats.Check(format)
}
