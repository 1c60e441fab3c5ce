package annotate

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/loss"
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
		Tool              sarifTool        `json:"tool"`
		AutomationDetails *sarifAutomation `json:"automationDetails,omitempty"`
		Results           []sarifResult    `json:"results"`
	}
	sarifAutomation struct {
		ID string `json:"id"`
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
		ID                   string       `json:"id"`
		ShortDescription     sarifMessage `json:"shortDescription"`
		FullDescription      sarifMessage `json:"fullDescription"`
		Help                 sarifMessage `json:"help"`
		HelpURI              string       `json:"helpUri"`
		DefaultConfiguration struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
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

// sarifLevel is the SARIF level of a finding of severity sev that fails
// check or not: error when it fails or the model loses the server, a
// tool or every instruction (broken), warning when degraded, else note.
func sarifLevel(sev loss.Severity, fails bool) string {
	switch {
	case fails || sev == loss.Broken:
		return "error"
	case sev == loss.Degraded:
		return "warning"
	}
	return "note"
}

// helpURI is where each rule is documented.
const helpURI = "https://github.com/instrlab/instrlab/blob/main/docs/codes.md"

// fingerprintKey names the partial fingerprint check writes, and its
// version: a new way of identifying findings is a new key.
const fingerprintKey = "instrlabFinding/v1"

// WriteSARIF writes r as a SARIF 2.1.0 log: one run per server, its
// category (automationDetails) the server and the profiles asked for, so
// that code scanning keeps each server's and profile selection's results
// apart; every code of assess.Docs as a rule, with its help, in the same
// order in every run (stable ruleIndex); one result per finding, with the
// clients it holds for in its message, located in the server's config
// file when it came from one and named by the server, and a partial
// fingerprint that stays the same from one check to the next.
func WriteSARIF(w io.Writer, r assess.Report, version string) error {
	driver := sarifDriver{Name: "instrlab check", Version: version, InformationURI: "https://github.com/instrlab/instrlab", Rules: []sarifRule{}}
	index := map[assess.Code]int{}
	rule := func(d assess.Doc) {
		index[d.Code] = len(driver.Rules)
		r := sarifRule{ID: string(d.Code), ShortDescription: sarifMessage{d.Short + "."}, FullDescription: sarifMessage{d.Help},
			Help: sarifMessage{d.Help + " Severity: " + string(d.Severity) + ", " + d.Why + "." + fails(d) + " Fix: " + d.Fix + "."}, HelpURI: helpURI}
		r.DefaultConfiguration.Level = sarifLevel(d.Severity, d.Fails == "always")
		driver.Rules = append(driver.Rules, r)
	}
	for _, d := range assess.Docs {
		rule(d)
	}
	for _, s := range r.Servers {
		for _, f := range s.Findings {
			if _, ok := index[f.Code]; !ok {
				rule(f.Code.Doc()) // none, as TestEveryCodeHasDoc checks; reported all the same
			}
		}
	}
	selection := r.Selection
	if selection == "" {
		selection = "all"
	}
	var runs []sarifRun
	for _, s := range r.Servers {
		run := sarifRun{Tool: sarifTool{driver}, Results: []sarifResult{},
			AutomationDetails: &sarifAutomation{ID: "instrlab-check/" + categoryPart(s.Target.Name) + "/" + categoryPart(selection) + "/"}}
		for _, f := range s.Findings {
			level := sarifLevel(f.Severity, f.Fails)
			loc := sarifLocation{LogicalLocations: []sarifLogical{{Name: untrusted.EscapeLine(s.Target.Name), Kind: "module"}}}
			if file := configFile(s.Target.Source); file != "" {
				loc.PhysicalLocation = &sarifPhysical{}
				loc.PhysicalLocation.ArtifactLocation.URI = fileURI(file)
			}
			run.Results = append(run.Results, sarifResult{RuleID: string(f.Code), RuleIndex: index[f.Code], Level: level,
				Message:             sarifMessage{untrusted.EscapeLine(s.Target.Name) + ": " + untrusted.Escape(f.Text())},
				Locations:           []sarifLocation{loc},
				PartialFingerprints: map[string]string{fingerprintKey: f.Fingerprint(s.Target.Name)}})
		}
		runs = append(runs, run)
	}
	if len(runs) == 0 {
		runs = []sarifRun{{Tool: sarifTool{driver}, Results: []sarifResult{}}}
	}
	return untrusted.JSON(w, sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: runs})
}

// fails says when findings of d fail check, as a sentence after the
// severity; "" for never.
func fails(d assess.Doc) string {
	switch d.Fails {
	case "":
		return ""
	case "always":
		return " It fails check."
	}
	return " It fails check " + d.Fails + "."
}

// categoryPart is a name as a part of a SARIF category: letters, digits
// and ._@+- kept, anything else (a slash, which parts the category)
// written as -.
func categoryPart(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("._@+-,", r):
			return r
		}
		return '-'
	}, s)
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
