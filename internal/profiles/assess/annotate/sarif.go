package annotate

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"sort"

	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// The SARIF 2.1.0 subset code scanning reads.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		ShortDescription sarifMessage `json:"shortDescription"`
		Help             sarifMessage `json:"help"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID    string          `json:"ruleId"`
		RuleIndex int             `json:"ruleIndex"`
		Level     string          `json:"level"`
		Message   sarifMessage    `json:"message"`
		Locations []sarifLocation `json:"locations,omitempty"`
	}
	sarifLocation struct {
		PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
		LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
	}
	sarifPhysical struct {
		ArtifactLocation struct {
			URI string `json:"uri"`
		} `json:"artifactLocation"`
	}
	sarifLogical struct {
		Name string `json:"name"`
		Kind string `json:"kind"`
	}
)

// sarifLevel maps a finding's level to a SARIF result level.
var sarifLevel = map[string]string{assess.Fail: "error", assess.Warn: "warning", assess.Info: "note"}

// WriteSARIF writes r as a SARIF 2.1.0 log: one rule per finding code
// present, with its help text, and one result per finding, located in the
// server's config file when it came from one and named by the server.
func WriteSARIF(w io.Writer, r assess.Report, version string) error {
	codes := map[string]int{}
	for _, s := range r.Servers {
		for _, f := range s.Findings {
			codes[f.Code] = 0
		}
	}
	ids := make([]string, 0, len(codes))
	for c := range codes {
		ids = append(ids, c)
	}
	sort.Strings(ids)
	driver := sarifDriver{Name: "instrlab check", Version: version, InformationURI: "https://github.com/instrlab/instrlab", Rules: []sarifRule{}}
	for i, id := range ids {
		codes[id] = i
		h := helpFor(id)
		driver.Rules = append(driver.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{h}, Help: sarifMessage{h}})
	}
	run := sarifRun{Tool: sarifTool{driver}, Results: []sarifResult{}}
	for _, s := range r.Servers {
		for _, f := range s.Findings {
			level, ok := sarifLevel[f.Level]
			if !ok {
				level = "warning"
			}
			loc := sarifLocation{LogicalLocations: []sarifLogical{{Name: untrusted.EscapeLine(s.Target.Name), Kind: "module"}}}
			if file := configFile(s.Target.Source); file != "" {
				loc.PhysicalLocation = &sarifPhysical{}
				loc.PhysicalLocation.ArtifactLocation.URI = fileURI(file)
			}
			run.Results = append(run.Results, sarifResult{RuleID: f.Code, RuleIndex: codes[f.Code], Level: level,
				Message: sarifMessage{untrusted.EscapeLine(s.Target.Name) + ": " + untrusted.Escape(f.Message)}, Locations: []sarifLocation{loc}})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}

// fileURI is a SARIF artifact URI for path: relative paths as they are
// (code scanning resolves them against the checkout), absolute ones as
// file URIs.
func fileURI(path string) string {
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(path)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
