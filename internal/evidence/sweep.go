package evidence

import "path/filepath"

// Files and folders of a sweep's output directory (instrlab sweep).
const (
	AtlasFile     = "atlas.json" // the atlas, JSON
	AtlasMDFile   = "atlas.md"   // the atlas, Markdown
	AtlasHTMLFile = "atlas.html" // the atlas, a page
	PointsDir     = "points"     // one file per probed version, for resume
	ConfirmDir    = "confirm"    // the runs of confirmation probes
)

// A SweepDir is the output directory of a sweep: the runs of every probed
// version laid out as an OutDir, confirmations in their own OutDir, a
// point file per probed version, and the atlas.
type SweepDir string

// Out is where the first probe of each version runs.
func (d SweepDir) Out() OutDir { return OutDir(d) }

// Confirm is where the second probes of change points run.
func (d SweepDir) Confirm() OutDir { return OutDir(filepath.Join(string(d), ConfirmDir)) }

// Atlas is the atlas's JSON file.
func (d SweepDir) Atlas() string { return filepath.Join(string(d), AtlasFile) }

// AtlasMD is the atlas's Markdown file.
func (d SweepDir) AtlasMD() string { return filepath.Join(string(d), AtlasMDFile) }

// AtlasHTML is the atlas's page.
func (d SweepDir) AtlasHTML() string { return filepath.Join(string(d), AtlasHTMLFile) }

// Points is the folder of client's point files.
func (d SweepDir) Points(client string) string { return filepath.Join(string(d), PointsDir, client) }

// Point is the file of one probe of client@version: attempt 1, or 2 for a
// confirmation.
func (d SweepDir) Point(client, version string, attempt int) string {
	name := version + ".json"
	if attempt == 2 {
		name = version + ".confirm.json"
	}
	return filepath.Join(d.Points(client), name)
}
