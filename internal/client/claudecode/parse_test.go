package claudecode

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/streamjson"
	"github.com/instrlab/instrlab/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixtures are trimmed evidence of real runs (see testdata/README.md).
func fixtures(t *testing.T) []string {
	dirs, err := filepath.Glob(filepath.Join("testdata", "2.*", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	return dirs
}

func parseFixture(t *testing.T, dir string) map[string]any {
	open := func(name string) *os.File {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	s, sw := streamjson.Parse(open("stdout.txt"), "stdout.txt")
	d, dw := ParseDebug(open("debug.log"), "debug.log")
	tr, tw := ParseTranscript(open("transcript.jsonl"), "transcript.jsonl")
	return map[string]any{"stream": s, "debug": d, "transcript": tr,
		"warnings": append(append(append([]string{}, sw...), dw...), tw...)}
}

func TestParsersOnRealRuns(t *testing.T) {
	for _, dir := range fixtures(t) {
		t.Run(dir, func(t *testing.T) {
			got, err := json.MarshalIndent(parseFixture(t, dir), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			testutil.Golden(t, filepath.Join(dir, "parsed.golden.json"), append(got, '\n'), *update)
		})
	}
}

// TestFixtureFacts pins the facts the analysis relies on, per version, so
// a golden refresh cannot silently lose them.
func TestFixtureFacts(t *testing.T) {
	tests := []struct {
		dir          string
		status       string
		era          string
		truncatedTo  int
		instrBlocks  int
		blockPrefix  string
		resultPrefix string
	}{
		{"testdata/2.1.328/en-5000", "connected", "legacy", 4096, 1, "## lab\nBEGIN codeword: ", "BEGIN="},
		{"testdata/2.1.285/en-5000", "connected", "legacy", 2048, 1, "## lab\nBEGIN codeword: ", "BEGIN="},
		{"testdata/2.1.328/en-1000-dual", "connected", "modern", 0, 1, "## lab\nBEGIN codeword: ", "BEGIN="},
		{"testdata/2.1.328/en-1000-late", "pending", "legacy", 0, 1, "## lab\nBEGIN codeword: ", "BEGIN="},
		{"testdata/2.1.285/en-1000-late", "pending", "legacy", 0, 1, "## lab\nBEGIN codeword: ", "BEGIN="},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			p := parseFixture(t, tt.dir)
			s, d, tr := p["stream"].(streamjson.Stream), p["debug"].(Debug), p["transcript"].(Transcript)
			if s.Servers["lab"] != tt.status {
				t.Errorf("status %q, want %q", s.Servers["lab"], tt.status)
			}
			if d.ProtocolEra["lab"] != tt.era {
				t.Errorf("era %q, want %q", d.ProtocolEra["lab"], tt.era)
			}
			to := 0
			if len(d.Truncations) > 0 {
				to = d.Truncations[0].To
			}
			if to != tt.truncatedTo {
				t.Errorf("truncated to %d, want %d", to, tt.truncatedTo)
			}
			if len(tr.Instructions) != tt.instrBlocks || !strings.HasPrefix(tr.Instructions[0].Text, tt.blockPrefix) {
				t.Errorf("instruction blocks %+v", tr.Instructions)
			}
			if !strings.HasPrefix(s.Result, tt.resultPrefix) {
				t.Errorf("result %q", s.Result)
			}
			if w := p["warnings"].([]string); len(w) > 0 {
				t.Errorf("warnings on a real run: %v", w)
			}
		})
	}
}

func TestParsersWarnAndContinue(t *testing.T) {
	stream := `{"type":"system","subtype":"init","mcp_servers":[{"name":"lab","status":"failed"}]}
{not json
{"type":"result","subtype":"success","result":"BEGIN=NONE"}
`
	s, w := streamjson.Parse(strings.NewReader(stream), "out.jsonl")
	if s.Servers["lab"] != "failed" || s.Result != "BEGIN=NONE" || len(w) != 1 || !strings.HasPrefix(w[0], "out.jsonl:2: ") {
		t.Errorf("ParseStream = %+v, %q", s, w)
	}
	transcript := `{"type":"attachment","attachment":{"type":"mcp_instructions_delta","addedNames":["lab"],"addedBlocks":["## lab\nX"]}}
[1,2]
{"type":"attachment","renderedRole":"system","attachment":{"type":"mcp_instructions_delta","addedNames":["a","b"],"addedBlocks":["A","B"]}}
`
	tr, w := ParseTranscript(strings.NewReader(transcript), "t.jsonl")
	want := []string{"lab", "a", "b"}
	var got []string
	for _, b := range tr.Instructions {
		got = append(got, b.Server)
	}
	if diff := cmp.Diff(want, got); diff != "" || len(w) != 1 || !strings.HasPrefix(w[0], "t.jsonl:2: ") {
		t.Errorf("ParseTranscript servers mismatch (-want +got):\n%s\nwarnings %q", diff, w)
	}
	if tr.Instructions[2].Where != "t.jsonl:3" || tr.Instructions[2].Role != "system" {
		t.Errorf("block %+v", tr.Instructions[2])
	}
	debug := `x MCP server "lab": Server instructions truncated from 99999999999999999999 to 1 chars
y MCP server "lab": Server instructions truncated from 5000 to 2048 chars
`
	d, w := ParseDebug(strings.NewReader(debug), "debug.log")
	if len(d.Truncations) != 1 || d.Truncations[0].Where != "debug.log:2" || len(w) != 1 || !strings.HasPrefix(w[0], "debug.log:1: ") {
		t.Errorf("ParseDebug = %+v, %q", d, w)
	}
}

func FuzzParseStream(f *testing.F) {
	addFixtures(f, "stdout.txt")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = streamjson.Parse(strings.NewReader(string(data)), "f")
	})
}

func FuzzParseDebug(f *testing.F) {
	addFixtures(f, "debug.log")
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _ := ParseDebug(strings.NewReader(string(data)), "f")
		for _, tr := range d.Truncations {
			if tr.From < 0 || tr.To < 0 {
				t.Fatalf("negative truncation %+v", tr)
			}
		}
	})
}

func FuzzParseTranscript(f *testing.F) {
	addFixtures(f, "transcript.jsonl")
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseTranscript(strings.NewReader(string(data)), "f")
	})
}

func addFixtures(f *testing.F, name string) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "2.*", "*", name))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 4096 {
			b = b[:4096]
		}
		f.Add(b)
	}
}
