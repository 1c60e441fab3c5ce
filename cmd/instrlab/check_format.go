package main

import (
	"io"

	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/profiles/assess/annotate"
)

// writeCheck prints check's report in the -format asked (json is printed
// by the caller).
func writeCheck(w io.Writer, rep assess.Report, f *checkFlags) error {
	switch f.format {
	case "github":
		return annotate.WriteGitHub(w, rep)
	case "sarif":
		v, _ := version()
		return annotate.WriteSARIF(w, rep, v)
	}
	return assess.WriteText(w, rep, f.show)
}
