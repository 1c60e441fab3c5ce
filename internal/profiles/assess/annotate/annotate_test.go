package annotate

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/loss"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// report has one server from a config and one from the command line, with
// server text that needs escaping in each format: %, CR, LF, an ESC, and
// the : and , that end a GitHub property.
func report() assess.Report {
	holder := []assess.Holder{{Client: "Claude Code 2.1.285", Profile: "claude-code@2.1.285", Ways: []string{"v2", "reminder"}, Summary: "v2, reminder"}}
	return assess.Report{Servers: []assess.Server{
		{
			Result: probe.Result{Target: probe.Target{Name: "docs,a:b", Source: "/proj/.mcp.json (project)"}},
			Findings: []assess.Finding{
				{Severity: loss.Info, Fails: true, Code: "max-chars", Rule: "-max-chars", Message: "instructions are 2,500 characters, over -max-chars 2000"},
				{Severity: loss.Degraded, Code: "truncated", Message: "cuts 100% of line 2:\r\nsecond line \x1b[31mred", For: holder},
			},
			Problems: []assess.Problem{
				{Severity: loss.Info, Fails: true, Code: "max-chars", Loss: "instructions over -max-chars", Fix: "shorten the instructions, or raise -max-chars", Findings: []int{0}},
				{Severity: loss.Degraded, Code: "truncated", Loss: "keeps 1 of 2 lines:\r\nsecond line \x1b[31mred", Fix: "put what matters first", For: holder, Findings: []int{1}},
			},
			Verdicts: []assess.ClientVerdict{{Client: "Claude Code 2.1.285", Profile: "claude-code@2.1.285", Ways: []string{"v2", "reminder"},
				Verdict: loss.VerdictDegraded, Because: []string{"keeps 1 of 2 lines"}, Codes: []assess.Code{"truncated"}}},
		},
		{
			Result:   probe.Result{Target: probe.Target{Name: "cli"}},
			Findings: []assess.Finding{{Severity: loss.Info, Code: "some-new-code", Message: "a note"}},
			Problems: []assess.Problem{{Severity: loss.Info, Code: "some-new-code", Loss: "a note", Findings: []int{0}}},
		},
	}}
}

func TestWriteGitHub(t *testing.T) {
	var b bytes.Buffer
	if err := WriteGitHub(&b, report()); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, "::") || strings.ContainsAny(line, "\r\x1b") {
			t.Errorf("not one clean workflow command: %q", line)
		}
	}
	testutil.Golden(t, "testdata/github.txt", b.Bytes(), *update)
}

func TestWriteSARIF(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, report(), "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	testutil.Golden(t, "testdata/sarif.json", b.Bytes(), *update)
	checkSARIFShape(t, b.Bytes(), 2)
}

func TestWriteSARIFNoFindings(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, assess.Report{}, ""); err != nil {
		t.Fatal(err)
	}
	checkSARIFShape(t, b.Bytes(), 0)
}

// checkSARIFShape checks what the SARIF 2.1.0 schema requires of the parts
// we write, and what code scanning needs: version and runs, a run per
// server, each with a category of its own (automationDetails.id, ending
// in "/"); each run's tool.driver.name; each result's message.text; rule
// ids unique, each with help, every ruleId among them and ruleIndex
// pointing at it; levels from the schema's enumeration; a partial
// fingerprint on every result.
func checkSARIFShape(t *testing.T, data []byte, servers int) {
	t.Helper()
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			AutomationDetails *struct {
				ID string `json:"id"`
			} `json:"automationDetails"`
			Tool *struct {
				Driver *struct {
					Name  string `json:"name"`
					Rules []struct {
						ID   string `json:"id"`
						Help *struct {
							Text string `json:"text"`
						} `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results *[]struct {
				RuleID              string            `json:"ruleId"`
				RuleIndex           int               `json:"ruleIndex"`
				Level               string            `json:"level"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Message             *struct {
					Text string `json:"text"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if log.Version != "2.1.0" || log.Schema == "" || len(log.Runs) != max(servers, 1) {
		t.Fatalf("version %q, $schema %q, %d runs; want 2.1.0, a schema, a run per server (%d)", log.Version, log.Schema, len(log.Runs), servers)
	}
	categories := map[string]bool{}
	for _, run := range log.Runs {
		if servers > 0 {
			if run.AutomationDetails == nil || !strings.HasSuffix(run.AutomationDetails.ID, "/") || categories[run.AutomationDetails.ID] {
				t.Errorf("run without a category of its own: %+v", run.AutomationDetails)
			} else {
				categories[run.AutomationDetails.ID] = true
			}
		}
		if run.Tool == nil || run.Tool.Driver == nil || run.Tool.Driver.Name == "" {
			t.Fatal("run without tool.driver.name")
		}
		if run.Results == nil {
			t.Fatal("run without results (an empty array is required when there are none)")
		}
		ids := map[string]int{}
		for i, r := range run.Tool.Driver.Rules {
			if _, dup := ids[r.ID]; dup || r.ID == "" || r.Help == nil || r.Help.Text == "" {
				t.Errorf("rule %d: id %q duplicate or empty, or without help text", i, r.ID)
			}
			ids[r.ID] = i
		}
		for i, r := range *run.Results {
			idx, ok := ids[r.RuleID]
			switch {
			case !ok || idx != r.RuleIndex:
				t.Errorf("result %d: ruleId %q, ruleIndex %d: not a rule of the driver", i, r.RuleID, r.RuleIndex)
			case r.Message == nil || r.Message.Text == "":
				t.Errorf("result %d: no message.text", i)
			case !strings.Contains(" none note warning error ", " "+r.Level+" "):
				t.Errorf("result %d: level %q", i, r.Level)
			case r.PartialFingerprints[fingerprintKey] == "":
				t.Errorf("result %d: no partial fingerprint", i)
			}
		}
	}
}

// TestExit: check exits 3 when a server could not be reached, 1 when a
// finding fails the check (a broken one that does not fail leaves 0).
func TestExit(t *testing.T) {
	unreached := assess.Report{Servers: []assess.Server{{Result: probe.Result{Target: probe.Target{Name: "gone"}}}}}
	failing := assess.Report{Servers: []assess.Server{{Reached: true, Findings: []assess.Finding{{Severity: loss.Info, Fails: true, Code: "max-chars"}}}}}
	broken := assess.Report{Servers: []assess.Server{{Reached: true, Findings: []assess.Finding{{Severity: loss.Broken, Code: "unused"}}}}}
	for _, tt := range []struct {
		rep  assess.Report
		code int
	}{{unreached, ExitUnreachable}, {failing, cli.ExitFailure}, {broken, cli.ExitOK}} {
		if code := cli.ExitCode("", Exit(tt.rep), io.Discard); code != tt.code {
			t.Errorf("exit %d, want %d (%v)", code, tt.code, Exit(tt.rep))
		}
	}
}
