package codex

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestConfig(t *testing.T) {
	r := &client.Run{APIURL: "http://127.0.0.1:4321/", Servers: []client.Server{{Name: "lab", Command: "/bin/instrlab",
		Args: []string{"serve", "lab", "-instr", "ascii:1000", "-log", `/runs/a "quoted"\dir/lab.jsonl`},
		Env:  map[string]string{"B": "2", "A": "tab\there"}}}}
	testutil.Golden(t, filepath.Join("testdata", "config.golden.toml"), []byte(Config(r, "gpt-test")), *update)
}

func TestTOMLString(t *testing.T) {
	tests := map[string]string{
		"plain":          `"plain"`,
		`a"b\c`:          `"a\"b\\c"`,
		"line\nbreak":    `"line\nbreak"`,
		"bell\a del\x7f": `"bell\u0007 del\u007F"`,
		"日本語":            `"日本語"`,
	}
	for in, want := range tests {
		if got := tomlString(in); got != want {
			t.Errorf("tomlString(%q) = %s, want %s", in, got, want)
		}
	}
	if got := tomlKey("mcp-lab_1"); got != "mcp-lab_1" {
		t.Errorf("tomlKey bare = %s", got)
	}
	if got := tomlKey("a.b"); got != `"a.b"` {
		t.Errorf("tomlKey dotted = %s", got)
	}
}

// TestObserveRealRuns reads trimmed evidence of real runs (testdata/ROW,
// made by testdata/trim.sh from "instrlab run -client codex@0.169.0").
func TestObserveRealRuns(t *testing.T) {
	tests := []struct {
		row     string
		servers int
		status  string
		answer  string
	}{
		{"en-1000", 1, "connected (3 tools)", "BEGIN=PINTAIL-8601 END=NONE LAST=NONE"},
		{"en-1000-held3", 1, "no catalog in log", "BEGIN=NONE END=NONE LAST=NONE"},
		// The cross matrix's row of three lab servers: a catalog each,
		// none named.
		{"servers", 3, "3 catalogs for 3 servers (3, 3, 3 tools; the log names no server)", "BEGIN=SPARROW-0759 END=NONE LAST=NONE"},
	}
	for _, tt := range tests {
		t.Run(tt.row, func(t *testing.T) {
			dir := testutil.RunDir(t, filepath.Join("testdata", tt.row),
				map[string]string{"stdout.txt": "client/stdout.txt", "stderr.txt": "client/stderr.txt"})
			o := Observe(dir, tt.servers)
			got := struct{ Status, Answer, Error string }{o.ServerStatus, o.Answer, o.ResultError}
			want := struct{ Status, Answer, Error string }{tt.status, tt.answer, ""}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Observe mismatch (-want +got):\n%s", diff)
			}
			if len(o.Warnings) > 0 {
				t.Errorf("warnings: %v", o.Warnings)
			}
		})
	}
}

func TestParseEventsBadLinesAndFailures(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"thread.started","thread_id":"t1"}`,
		`not json`,
		`{"type":"item.completed","item":{"type":"mcp_tool_call","server":"lab","tool":"lab_ping"}}`,
		`{"type":"item.completed","item":{"type":"agent_message","text":"first"}}`,
		`{"type":"item.completed","item":{"type":"agent_message","text":"last"}}`,
		`{"type":"turn.failed","error":{"message":"stream disconnected"}}`,
		`{"type":"turn.completed","usage":{"input_tokens":42}}`,
	}, "\n")
	ev, w := ParseEvents(strings.NewReader(in), "stdout.txt")
	want := Events{ThreadID: "t1", Answer: "last", Failed: "stream disconnected", MCPCalls: []string{"lab.lab_ping"}, InputTokens: 42, Count: 6}
	if diff := cmp.Diff(want, ev); diff != "" {
		t.Errorf("ParseEvents mismatch (-want +got):\n%s", diff)
	}
	if len(w) != 1 || !strings.HasPrefix(w[0], "stdout.txt:2: ") {
		t.Errorf("warnings %q, want one for stdout.txt:2", w)
	}
}

func TestParseLog(t *testing.T) {
	in := strings.Join([]string{
		`2026-11-30T01:44:10Z  INFO codex_otel.trace_safe: MCP binding catalog materialized event.name="mcp.binding_catalog" server_kind="configured" catalog_source="live" tool_count=3`,
		`2026-11-30T01:44:10Z  INFO codex_otel.trace_safe: MCP binding catalog materialized event.name="mcp.binding_catalog" server_kind="builtin" tool_count=9`,
		`2026-11-30T01:44:10Z  INFO codex_rmcp_client::stdio_server_launcher: MCP server stderr (/bin/instrlab): hello`,
		`2026-11-30T01:44:10Z  WARN codex_core::mcp: MCP client for lab timed out`,
		`2026-11-30T01:44:10Z  WARN codex_core::other: unrelated`,
		`2026-12-03T11:28:02.835055Z  WARN codex_mcp::rmcp_client: failed to initialize MCP client during shutdown: MCP startup failed: timed out handshaking with MCP server after 29.999999449s: deadline has elapsed`,
	}, "\n")
	l, w := ParseLog(strings.NewReader(in), "stderr.txt")
	want := Log{Catalogs: []Catalog{{Tools: 3, Where: "stderr.txt:1"}}, ServerStderr: 1,
		Problems: []string{"stderr.txt:4: 2026-11-30T01:44:10Z  WARN codex_core::mcp: MCP client for lab timed out",
			"stderr.txt:6: 2026-12-03T11:28:02.835055Z  WARN codex_mcp::rmcp_client: failed to initialize MCP client during shutdown: MCP startup failed: timed out handshaking with MCP server after 29.999999449s: deadline has elapsed"},
		TimedOut: "29.999999449", Lines: 6}
	if diff := cmp.Diff(want, l); diff != "" {
		t.Errorf("ParseLog mismatch (-want +got):\n%s", diff)
	}
	if len(w) != 0 {
		t.Errorf("warnings %v", w)
	}
}

func FuzzParseEvents(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stdout.txt"), filepath.Join("testdata", "en-1000-held3", "stdout.txt"))
	f.Add([]byte(`{"type":"item.completed","item":null}` + "\n" + `{"type":"turn.failed","error":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, w := ParseEvents(strings.NewReader(string(data)), "stdout.txt")
		testutil.InFile(t, "stdout.txt", w)
		if ev.Count < 0 {
			t.Fatal("negative count")
		}
		_, _ = json.Marshal(ev)
	})
}

func FuzzParseLog(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stderr.txt"))
	f.Add([]byte("x MCP binding catalog materialized server_kind=\"configured\" tool_count=99999999999999999999\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, w := ParseLog(strings.NewReader(string(data)), "stderr.txt")
		testutil.InFile(t, "stderr.txt", append(w, l.Problems...))
	})
}

func TestConfigTwoServers(t *testing.T) {
	cfg := Config(&client.Run{APIURL: "http://127.0.0.1:4321/", Servers: testutil.TwoServers()}, "")
	testutil.ServersInOrder(t, cfg)
	for _, table := range []string{"[mcp_servers.zeta]", "[mcp_servers.alpha]", "[mcp_servers.alpha.env]"} {
		if !strings.Contains(cfg, table) {
			t.Errorf("config lacks %s:\n%s", table, cfg)
		}
	}
}
