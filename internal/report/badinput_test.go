package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/table"
)

// TestBadEvidenceStillRenders: a run without its lab log, one with
// unreadable lines in its recorded requests and one that failed still
// render; the affected cells say why and link the file.
func TestBadEvidenceStillRenders(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(diffDir, "2.1.328"))); err != nil {
		t.Fatal(err)
	}
	run := func(row string) string { return filepath.Join(dir, "claude-code@2.1.328", row, "1") }
	if err := os.Remove(filepath.Join(run("en-1000"), "lab.jsonl")); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(run("en-5000"), "api", "requests.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("{not json\n\x00\x01garbage\n")
	f.Close()
	rec, _ := os.ReadFile(filepath.Join(run("en-1000-dual"), "run.json"))
	rec = bytes.Replace(rec, []byte(`"status": "ok"`), []byte(`"status": "failed", "reason": "timed out after 2m0s"`), 1)
	if err := os.WriteFile(filepath.Join(run("en-1000-dual"), "run.json"), rec, 0o644); err != nil {
		t.Fatal(err)
	}

	m, results, _, err := Load(t.Context(), clients.New, dir)
	if err != nil {
		t.Fatal(err)
	}
	rep := New(m, results, dir)
	cell := func(row, col string) table.Cell {
		t.Helper()
		for _, r := range rep.Table.Rows {
			if r[0].Text != rep.g.labels[row] {
				continue
			}
			for i, c := range rep.Table.Columns {
				if c.Name == col {
					return r[i]
				}
			}
		}
		t.Fatalf("no cell %s/%s", row, col)
		return table.Cell{}
	}
	for _, tt := range []struct {
		row, col, text, link string
	}{
		{"en-1000", "server saw", "not recorded: no lab.jsonl", "claude-code@2.1.328/en-1000/1/lab.jsonl"},
		{"en-5000", "chars kept", "4,096 of 5,000 + \"… [truncated]\" (2 lines unreadable in requests.jsonl)", "claude-code@2.1.328/en-5000/1/api/requests.jsonl"},
		{"en-1000-dual", "runs", "0 ok, 1 FAILED: timed out after 2m0s", "claude-code@2.1.328/en-1000-dual/1/run.json"},
	} {
		if c := cell(tt.row, tt.col); c.Text != tt.text || c.Link != tt.link {
			t.Errorf("%s/%s = %q linked to %q, want %q linked to %q", tt.row, tt.col, c.Text, c.Link, tt.text, tt.link)
		}
	}
	var page, summary bytes.Buffer
	if err := rep.HTML(&page); err != nil {
		t.Fatal(err)
	}
	if err := rep.Write(&summary, "text"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<a href="claude-code@2.1.328/en-1000/1/lab.jsonl">not drawn: opening lab log:`,
		`⚠ FAILED (1 run): timed out after 2m0s`,
		`requests.jsonl:2:`,
	} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if !strings.Contains(summary.String(), "en-1000-dual  FAILED (1 run): timed out after 2m0s*") {
		t.Errorf("summary:\n%s", summary.String())
	}
}

// TestEmptyEvidenceMarkedInTable: a 0-byte lab.jsonl and an empty run.json
// are marked in the table itself, not only in warnings: the run with the
// empty record is kept, failed, with why.
func TestEmptyEvidenceMarkedInTable(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(diffDir, "2.1.328"))); err != nil {
		t.Fatal(err)
	}
	run := func(row string) string { return filepath.Join(dir, "claude-code@2.1.328", row, "1") }
	if err := os.WriteFile(filepath.Join(run("en-1000"), "lab.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run("en-5000"), "run.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m, results, warnings, err := Load(t.Context(), clients.New, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 4 {
		t.Fatalf("%d runs loaded, want all 4 (the one with an empty run.json kept); warnings %q", len(results), warnings)
	}
	rep := New(m, results, dir)
	cell := func(row, col string) string {
		t.Helper()
		for _, r := range rep.Table.Rows {
			if r[0].Text != rep.g.labels[row] {
				continue
			}
			for i, c := range rep.Table.Columns {
				if c.Name == col {
					return r[i].Text
				}
			}
		}
		t.Fatalf("no cell %s/%s", row, col)
		return ""
	}
	if got := cell("en-1000", "server saw"); got != "not recorded: lab.jsonl is empty" {
		t.Errorf("server saw with an empty lab.jsonl = %q", got)
	}
	if got := cell("en-5000", "runs"); got != "not recorded: run.json is empty" {
		t.Errorf("runs with an empty run.json = %q, want it marked", got)
	}
	for _, r := range results {
		if r.Row == "en-5000" && (r.Status != "failed" || !strings.Contains(r.Reason, "evidence unreadable")) {
			t.Errorf("the run with an empty run.json: status %q reason %q, want failed as unreadable", r.Status, r.Reason)
		}
	}
}

// TestLoadNoDirs: Load of no directory is an error, not an empty report.
func TestLoadNoDirs(t *testing.T) {
	if _, _, _, err := Load(t.Context(), clients.New); !errors.Is(err, errNoRuns) {
		t.Errorf("Load(t.Context(), clients.New) = %v, want errNoRuns", err)
	}
}

// TestUnreadableLine: only a warning about a numbered line of the file
// counts as an unreadable line; a warning that quotes what the file says
// (a framework host's failed server) does not.
func TestUnreadableLine(t *testing.T) {
	for _, tt := range []struct {
		w    string
		want bool
	}{
		{"requests.jsonl:2: invalid character 'n'", true},
		{"api/requests.jsonl:12: unexpected end of JSON input", true},
		{"client/stdout.txt: server lab: Could not connect to server", false},
		{"stdout.txt:: nothing", false},
		{"stdout.txt:7", false},
		{"other.jsonl:2: bad", false},
	} {
		base := "requests.jsonl"
		if strings.Contains(tt.w, "stdout") {
			base = "stdout.txt"
		}
		if got := unreadableLine(tt.w, base); got != tt.want {
			t.Errorf("unreadableLine(%q, %q) = %v, want %v", tt.w, base, got, tt.want)
		}
	}
}
