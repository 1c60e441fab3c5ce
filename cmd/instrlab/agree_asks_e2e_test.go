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

// TestE2EAskAloneAgreement holds check's turn-never-ends to a run of the
// protocol-asks row: check calls every tool that asks on a modern-only
// lab (their results ask in input_required), and a tool has the finding
// for a client exactly where the run shows the client's turn never going
// on after that ask alone (the run timed out with no model request
// carrying the call's result). A client that spoke 2025-11-25 to the row
// has nothing to compare: check must then predict no finding. An ask the
// run never reached (after one that stopped the turn) is logged.
//
// With INSTRLAB_E2E=1 it runs Claude Code (CI); with INSTRLAB_E2E_AGREE=1
// every pinned client; INSTRLAB_E2E_AGREE_CLIENTS=SPEC,SPEC those.
func TestE2EAskAloneAgreement(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run real clients")
	}
	args := []string{"check", "-format", "json", "-timeout", "30s"}
	for _, a := range labvocab.ProtocolAsks {
		args = append(args, "-call", a.Tool)
	}
	server := []string{"--", binary, "serve", "lab", "-surface", string(lab.SurfaceProtocol), "-eras", string(lab.ModeModern)}
	for _, spec := range agreeSpecs(t) {
		t.Run(spec, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			run(context.Background(), append(append(append([]string{}, args...), "-profile", spec), server...), &stdout, &stderr)
			var rep assess.Report
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || len(rep.Servers) != 1 {
				t.Fatalf("check -profile %s: %v\n%s", spec, err, stderr.String())
			}
			predicted := map[string]bool{}
			for _, f := range rep.Servers[0].Findings {
				if f.Code == assess.TurnNeverEnds {
					predicted[f.Tool] = true
				}
			}
			results := runE2EFailing(t, true, "-client", spec, "-matrix", "protocol", "-row", matrix.ProtocolAsksRow, "-lab", binary, "-timeout", "3m")
			if len(results) != 1 || results[0].Surface == nil {
				t.Fatalf("run: %+v", results)
			}
			r := results[0]
			if r.Surface.Protocol == nil || !r.Surface.Protocol.Modern {
				if len(predicted) > 0 {
					t.Errorf("the client spoke 2025-11-25 to the row, and check predicts turn-never-ends for %v", predicted)
				}
				t.Logf("spoke 2025-11-25: nothing to compare")
				return
			}
			hung := r.Status == analyze.StatusFailed && strings.HasPrefix(r.Reason, analyze.TimedOut)
			compared := 0
			for _, a := range labvocab.ProtocolAsks {
				var call *surface.CallFacts
				for i, c := range r.Surface.Calls {
					if c.Tool == a.Tool && c.Reached {
						call = &r.Surface.Calls[i]
					}
				}
				if call == nil {
					t.Logf("%s: not reached in the run; check predicts a finding: %v", a.Tool, predicted[a.Tool])
					continue
				}
				compared++
				if stops := hung && call.Following == 0; stops != predicted[a.Tool] {
					t.Errorf("%s: the run's turn stops after it: %v; check predicts turn-never-ends: %v", a.Tool, stops, predicted[a.Tool])
				}
			}
			if compared == 0 {
				t.Errorf("nothing compared")
			}
			t.Logf("%d asks compared", compared)
		})
	}
}
