package annotate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
	"github.com/instrlab/instrlab/schema"
)

// ExitUnreachable is check's exit status when a server could not be
// reached, beside internal/cli's 0, 1 and 2.
const ExitUnreachable = 3

// Formats are the formats check prints its report in: text for people
// (assess.WriteText), md (the verdicts and problems in Markdown, for a
// CI job summary: assess.WriteMarkdown), json (the Report itself),
// github (workflow annotations) and sarif (SARIF 2.1.0 for code
// scanning).
var Formats = table.Formats{"text", "md", "json", "github", "sarif"}

// Format is the format check's -format and -json flags ask for (-json
// is -format json), or the error that names the flag at fault.
func Format(format string, json bool) (string, error) {
	switch {
	case json && format != "text" && format != "json":
		return "", fmt.Errorf("-json conflicts with -format %s", format)
	case json:
		return "json", nil
	}
	return format, Formats.Check(format)
}

// Write prints rep in one of Formats. text says how much the text
// format prints; version is instrlab's own, named in SARIF.
func Write(w io.Writer, rep assess.Report, format string, text assess.TextOptions, version string) error {
	switch format {
	case "text":
		return assess.WriteText(w, rep, text)
	case "md":
		return assess.WriteMarkdown(w, rep)
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

// Exit is check's exit status for rep, as an error: ExitUnreachable when
// a server could not be reached, cli.ExitFailure when a finding fails the
// check, nil otherwise.
func Exit(rep assess.Report) error {
	if names := rep.Unreached(); len(names) > 0 {
		return cli.ExitError{Code: ExitUnreachable, Err: fmt.Errorf("check: could not reach %s", strings.Join(names, ", "))}
	}
	if rep.Failed() {
		return errors.New("check: findings break a rule")
	}
	return nil
}

// WriteError prints the error object check's -json gives instead of a
// report: {"$schema": schema.Check, "error": {"exit_code": 2, "kind":
// "usage", "message": "..."}}.
func WriteError(w io.Writer, code int, err error) error {
	kind := map[int]string{cli.ExitUsage: "usage", cli.ExitFailure: "failure", ExitUnreachable: "unreachable"}[code]
	data, merr := json.MarshalIndent(map[string]any{"$schema": schema.Check, "error": map[string]any{
		"exit_code": code, "kind": kind, "message": err.Error(),
	}}, "", "  ")
	if merr != nil {
		return merr
	}
	_, werr := w.Write(append(data, '\n'))
	return werr
}
