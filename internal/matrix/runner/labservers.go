package runner

import (
	"slices"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/lab"
)

// labServers is the client's config of the row's lab servers, each
// logging to its own file of files.
func labServers(exe string, row matrix.Row, files evidence.RunDir) []client.Server {
	var out []client.Server
	for i, s := range row.LabServers() {
		a := row.LabFor(s, files.ServerLog(i, s.Name))
		out = append(out, client.Server{Name: s.Name, Command: exe, Args: append(slices.Clone(lab.Subcommand), a.Args()...)})
	}
	return out
}
