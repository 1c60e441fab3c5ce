package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/jsonl"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// protocolFacts are the surface facts of the trimmed protocol run of
// Claude Code 2.1.332 (internal/surface/testdata).
func protocolFacts(t *testing.T) *analyze.SurfaceFacts {
	t.Helper()
	dir := filepath.Join("..", "surface", "testdata", "claude-code-2.1.332-protocol")
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	reqs, _ := jsonl.Decode[fakeapi.Request](bytes.NewReader(read("requests.jsonl")), "requests.jsonl")
	log, _ := jsonl.Decode[lab.Entry](bytes.NewReader(read("lab.jsonl")), "lab.jsonl")
	rs, _ := surface.Contexts(reqs)
	tools := surface.Tools(rs, log, "lab")
	return &analyze.SurfaceFacts{Calls: surface.Calls(rs, log), Tools: tools, Protocol: surface.Protocol(rs, log, "lab")}
}

// TestProtocolTable: run's summary of the protocol matrix says, per
// client, what it declared, how it answered each ask, whether each
// notice reached the model, what it did after tools/list_changed, and
// what became of the app-only tool and x-mcp-header; a fact that holds
// in some runs only is counted; a run that called nothing says why.
func TestProtocolTable(t *testing.T) {
	a, b := protocolFacts(t), protocolFacts(t)
	changed := *b.Protocol.Changed
	changed.Relisted, changed.Restarted = false, true
	b.Protocol.Changed = &changed
	results := []analyze.Result{
		{Client: "claude-code@2.1.332", Row: matrix.ProtocolRow, Status: "ok", Surface: a},
		{Client: "claude-code@2.1.332", Row: matrix.ProtocolRow, Status: "ok", Surface: b},
		{Client: "grok@0.0.34", Row: matrix.ProtocolRow, Status: "ok",
			Surface: &analyze.SurfaceFacts{NotCalled: []surface.Missed{{Tool: "protocol_log", Why: surface.MissedNotOffered}}}},
		{Client: "codex@0.171.0", Row: "surface-meta", Status: "ok", Surface: &analyze.SurfaceFacts{}}, // not the protocol row
	}
	t.Setenv("COLUMNS", "300")
	var out strings.Builder
	if err := New(nil, results, "").Write(&out, "text"); err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(out.String(), "What the server asked and announced (protocol)")
	if !ok {
		t.Fatalf("no protocol table:\n%s", out.String())
	}
	for _, want := range []string{
		"declared            elicitation.form, elicitation.url, roots.listChanged",
		"elicitation form    cancel",
		"elicitation url     cancel",
		"sampling            error -32601",
		"roots/list          result: 1 roots",
		"log message         never reaches the model; the client sets no log level (the lab logged at info)",
		"progress            never reaches the model",
		"tools/list_changed  lists the tools again; the model has the new tool only after the call's result (request 4; the result in request 3) (1 of 2 runs)",
		"tools/list_changed  never lists the tools again: it starts the server anew for each call (1 of 2 runs)",
		"app-only tool       not offered to the model",
		"x-mcp-header        kept in the schema the model gets",
		"grok@0.0.34          tool calls          no call made: the client never offered it to the model",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "codex") {
		t.Errorf("a run of another row in the protocol table:\n%s", table)
	}
}
