package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// TestE2EProtocolAgreement holds check's protocol fact to run's
// measurement: the lab's protocol group, check calling protocol_roots
// (so that it hears roots/list), against a run of the protocol row; for
// tools/list_changed, log messages, the app-only tool, x-mcp-header, the
// tool to be called as a task and roots/list, what check predicts from the client's profile is what the
// run shows it doing, where the profile's runs agreed (a fact that varies
// is logged, not compared).
//
// With INSTRLAB_E2E=1 it runs Claude Code (CI); with INSTRLAB_E2E_AGREE=1
// every pinned client; INSTRLAB_E2E_AGREE_CLIENTS=SPEC,SPEC those.
func TestE2EProtocolAgreement(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run real clients")
	}
	server := []string{binary, "serve", "lab", "-surface", string(lab.SurfaceProtocol)}
	for _, spec := range agreeSpecs(t) {
		t.Run(spec, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			run(context.Background(), append([]string{"check", "-format", "json", "-timeout", "30s", "-profile", spec, "-call", "protocol_roots", "--"}, server...), &stdout, &stderr)
			var rep assess.Report
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Servers) != 1 || len(rep.Servers[0].Views) == 0 {
				t.Fatalf("check -profile %s: %v\n%s", spec, err, stderr.String())
			}
			predicted := ""
			for _, f := range rep.Servers[0].Views[0].Facts {
				if f.Name == "protocol" {
					predicted = f.Value
				}
			}
			results := runE2E(t, "-client", spec, "-matrix", "protocol", "-row", matrix.ProtocolRow, "-lab", binary, "-timeout", "3m")
			if len(results) != 1 || results[0].Status != analyze.StatusOK || results[0].Surface == nil {
				t.Fatalf("run: %+v", results)
			}
			f := results[0].Surface
			if f.Protocol == nil {
				// No call made (Grok CLI offers no MCP tool to its model):
				// nothing measured, nothing predicted.
				if strings.Contains(predicted, ": "+assess.NotMeasured+";") || predicted == "" {
					t.Logf("no call made; check: %q", predicted)
					return
				}
				t.Fatalf("the run made no call, and check predicts %q", predicted)
			}
			what := map[string]string{
				labvocab.FeatureListChanged: "tools/list_changed: ",
				labvocab.FeatureLog:         "log messages: ",
				labvocab.FeatureAppOnly:     "app-only tools (1): ",
				labvocab.FeatureHeader:      "tools with x-mcp-header (1): ",
				labvocab.FeatureTask:        "tools to be called as tasks (1): ",
				labvocab.FeatureRoots:       `roots/list (sent during ["protocol_roots"]): `,
			}
			compared := 0
			for _, l := range surface.ProtocolLines(f.Protocol, f.Calls, f.Tools, f.NotCalled) {
				prefix, ok := what[l.Feature]
				if !ok {
					continue
				}
				if strings.Contains(predicted, prefix+"varies") {
					t.Logf("%s: the profile's runs varied; run shows %q", l.Feature, l.Does)
					continue
				}
				compared++
				if !strings.Contains(predicted, prefix+l.Does) {
					t.Errorf("%s: run shows %q; check predicts %q", l.Feature, l.Does, predicted)
				}
			}
			if compared == 0 {
				t.Errorf("nothing compared: check %q", predicted)
			}
			t.Logf("%d facts compared", compared)
		})
	}
}
