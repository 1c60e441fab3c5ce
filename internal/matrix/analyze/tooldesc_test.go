package analyze

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
)

// TestLocateToolsRealClients reads server-everything's tool descriptions
// in excerpts of the first requests two real clients made (testdata/tools,
// from run -server evidence): both defer MCP tools behind a search tool.
// Claude Code 2.1.328 names them one a line in a system message, without
// descriptions; Qwen Code 0.24.4 lists each with its quoted description,
// cut to 157 characters and "...".
func TestLocateToolsRealClients(t *testing.T) {
	tools := serverTools(t, "server-everything")
	segment := func(file string, kind fakeapi.Kind) fakeapi.Context {
		text, err := os.ReadFile("testdata/tools/" + file)
		if err != nil {
			t.Fatal(err)
		}
		return fakeapi.Context{{Kind: kind, Path: "messages[1].content[0].text", Text: string(text)}}
	}

	claude := locateTools(segment("claude-code@2.1.328.txt", fakeapi.KindSystemMessage), tools, "lab")
	for _, f := range claude {
		if f.Via != ViaNameOnly || f.Found || f.Kind != fakeapi.KindSystemMessage || !strings.Contains(f.Wrapper, "The following deferred tools") {
			t.Errorf("claude-code: %+v, want named only in the system message's deferred tools", f)
		}
	}

	qwen := locateTools(segment("qwen@0.24.4.txt", fakeapi.KindUserTurn), tools, "lab")
	whole := 0
	for _, f := range qwen {
		if f.Via != ViaListing || f.Kind != fakeapi.KindUserTurn || f.Wrapper != "<system-reminder> … #### lab" {
			t.Errorf("qwen: %+v, want listed in the user turn under #### lab", f)
		}
		switch {
		case f.Full:
			whole++
		case f.Kept != 157 || !strings.HasPrefix(f.Suffix, `..."`) || !strings.HasPrefix(f.Lost, "cut in ") || f.Sent <= 160:
			t.Errorf("qwen: %s cut as %+v, want 157 characters kept, then ...", f.Name, f)
		}
	}
	if whole != 12 {
		t.Errorf("qwen: %d of %d descriptions whole, want 12 (the two longer than 160 characters cut)", whole, len(qwen))
	}
}

func TestLocateTools(t *testing.T) {
	tools := []NamedText{
		{Name: "echo", Description: "Echoes back the input."},
		{Name: "quote", Description: `Says "hi".` + "\nThen stops."},
		{Name: "sum", Description: "Adds two numbers. Then more."},
		{Name: "gone", Description: "Never sent."},
	}
	def := func(name, desc string) fakeapi.Segment {
		b, _ := json.Marshal(map[string]string{"name": name, "description": desc})
		return fakeapi.Segment{Kind: fakeapi.KindToolDefinition, Name: name, Text: string(b)}
	}
	tests := []struct {
		name string
		ctx  fakeapi.Context
		want []ToolFacts
	}{
		{
			name: "definitions, one cut",
			ctx:  fakeapi.Context{def("mcp__lab__echo", "Echoes back the input."), def("mcp__lab__sum", "Adds two numbers. Th")},
			want: []ToolFacts{
				{Name: "echo", Sent: 22, Via: ViaDefinition, Kind: fakeapi.KindToolDefinition, Found: true, Kept: 22, Full: true, As: "mcp__lab__echo"},
				{Name: "quote", Sent: 22},
				{Name: "sum", Sent: 28, Via: ViaDefinition, Kind: fakeapi.KindToolDefinition, Found: true, Kept: 20, Lost: `cut in "Then more."`, As: "mcp__lab__sum"},
				{Name: "gone", Sent: 11},
			},
		},
		{
			name: "a listing quotes descriptions as JSON strings",
			ctx: fakeapi.Context{{Kind: fakeapi.KindUserTurn, Text: "Tools:\n" +
				`- "lab_echo": "Echoes back the input."` + "\n" +
				`- "lab_quote": "Says \"hi\".\nThen st..."` + "\n"}},
			want: []ToolFacts{
				{Name: "echo", Sent: 22, Via: ViaListing, Kind: fakeapi.KindUserTurn, Wrapper: "Tools:", Found: true, Kept: 22, Full: true},
				{Name: "quote", Sent: 22, Via: ViaListing, Kind: fakeapi.KindUserTurn, Wrapper: "Tools:", Found: true, Kept: 18, Suffix: `..."` + "\n", Lost: `cut in "Then stops."`},
				{Name: "sum", Sent: 28},
				{Name: "gone", Sent: 11},
			},
		},
		{
			name: "a description under another tool's name, and names in prose, do not count",
			ctx: fakeapi.Context{{Kind: fakeapi.KindSystem, Text: "Call echo or sum first.\n" +
				"- other: Adds two numbers. Then more.\n\nDeferred:\nmcp__lab__gone\n"}},
			want: []ToolFacts{
				{Name: "echo", Sent: 22},
				{Name: "quote", Sent: 22},
				{Name: "sum", Sent: 28},
				{Name: "gone", Sent: 11, Via: ViaNameOnly, Kind: fakeapi.KindSystem, Wrapper: "Call echo or sum first. … Deferred:"},
			},
		},
		{
			// Codex 0.169.0's developer message, as its first request had it.
			name: "only the server's namespace",
			ctx:  fakeapi.Context{{Kind: fakeapi.KindDeveloperMessage, Text: "<tools>\nDeferred tool namespaces:\n- mcp__lab\n</tools>"}},
			want: []ToolFacts{
				{Name: "echo", Sent: 22, Via: ViaNamespace, Kind: fakeapi.KindDeveloperMessage, Wrapper: "<tools> … Deferred tool namespaces:"},
				{Name: "quote", Sent: 22, Via: ViaNamespace, Kind: fakeapi.KindDeveloperMessage, Wrapper: "<tools> … Deferred tool namespaces:"},
				{Name: "sum", Sent: 28, Via: ViaNamespace, Kind: fakeapi.KindDeveloperMessage, Wrapper: "<tools> … Deferred tool namespaces:"},
				{Name: "gone", Sent: 11, Via: ViaNamespace, Kind: fakeapi.KindDeveloperMessage, Wrapper: "<tools> … Deferred tool namespaces:"},
			},
		},
		{
			// Codex 0.171.0's: the namespace, a colon and the server's
			// instructions, cut (budget's defer runs, 2026-12-03).
			name: "the server's namespace with its text",
			ctx:  fakeapi.Context{{Kind: fakeapi.KindDeveloperMessage, Text: "<tools>\nDeferred tool namespaces:\n- mcp__lab: BEGIN codeword: PINTAIL-8601. The lab server tracks...\n</tools>"}},
			want: []ToolFacts{
				{Name: "echo", Sent: 22, Via: ViaNamespace, Kind: fakeapi.KindDeveloperMessage, Wrapper: "<tools> … Deferred tool namespaces:"},
				{Name: "quote", Sent: 22, Via: ViaNamespace, Kind: fakeapi.KindDeveloperMessage, Wrapper: "<tools> … Deferred tool namespaces:"},
				{Name: "sum", Sent: 28, Via: ViaNamespace, Kind: fakeapi.KindDeveloperMessage, Wrapper: "<tools> … Deferred tool namespaces:"},
				{Name: "gone", Sent: 11, Via: ViaNamespace, Kind: fakeapi.KindDeveloperMessage, Wrapper: "<tools> … Deferred tool namespaces:"},
			},
		},
		{
			name: "a namespace in prose is not one",
			ctx:  fakeapi.Context{{Kind: fakeapi.KindDeveloperMessage, Text: "Tools of mcp__lab: none yet."}},
			want: []ToolFacts{{Name: "echo", Sent: 22}, {Name: "quote", Sent: 22}, {Name: "sum", Sent: 28}, {Name: "gone", Sent: 11}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, locateTools(tt.ctx, tools, "lab")); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNamesLabTool: a lab tool named in a list of deferred tools, behind
// the client's prefix (Droid 0.225.2: "lab___lookup_part"), names it; the
// server's namespace alone, a tool definition, or the name in prose do not.
func TestNamesLabTool(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctx  fakeapi.Context
		want bool
	}{
		{"Droid's deferred list", fakeapi.Context{{Kind: fakeapi.KindUserTurn, Text: "<system-reminder>\nDeferred tools:\nWebSearch\nFetchUrl\nlab___lab_ping\nlab___lookup_part\n</system-reminder>"}}, true},
		{"its own tools only", fakeapi.Context{{Kind: fakeapi.KindUserTurn, Text: "Deferred tools:\nWebSearch\nFetchUrl\n"}}, false},
		{"the namespace alone", fakeapi.Context{{Kind: fakeapi.KindDeveloperMessage, Text: "Deferred tool namespaces:\n- mcp__lab\n"}}, false},
		{"in prose", fakeapi.Context{{Kind: fakeapi.KindSystem, Text: "Use lookup_part when asked."}}, false},
	} {
		if got := namesLabTool(tc.ctx, "lab"); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestKeepTheMost: of the places a description was found, the one that
// kept the most is the tool's; of two that kept as much, the one that
// kept all of it.
func TestKeepTheMost(t *testing.T) {
	def := fakeapi.Segment{Kind: fakeapi.KindToolDefinition}
	listing := fakeapi.Segment{Kind: fakeapi.KindSystemMessage}
	var f ToolFacts
	for _, step := range []struct {
		m       measured
		via     string
		s       fakeapi.Segment
		wantVia string
	}{
		{measured{kept: 10, rest: "..."}, ViaDefinition, def, ViaDefinition},
		{measured{kept: 5, full: true}, ViaListing, listing, ViaDefinition},           // less: not taken
		{measured{kept: 10, rest: "<x"}, ViaListing, listing, ViaDefinition},          // as much, not whole: not taken
		{measured{kept: 10, full: true, rest: "\n"}, ViaListing, listing, ViaListing}, // as much and whole
		{measured{kept: 10, rest: "..."}, ViaDefinition, def, ViaListing},
	} {
		f.keep(step.m, step.via, step.s, "w")
		if f.Via != step.wantVia {
			t.Fatalf("after %+v via %s: via %s, want %s", step.m, step.via, f.Via, step.wantVia)
		}
	}
	want := ToolFacts{Found: true, Kept: 10, Full: true, Suffix: "\n", Via: ViaListing, Kind: fakeapi.KindSystemMessage, Wrapper: "w"}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Errorf("facts mismatch (-want +got):\n%s", diff)
	}
}

// TestLocateToolsRenamed: Codex CLI 0.171.0 (default model) offers no MCP
// tool in its first request, only the namespace of the server, renamed:
// server-filesystem's as mcp__server_filesystem (testdata/tools, the text
// of its first request, run -server, 2026-12-05). Every tool of the
// server reached the model as that namespace; before, none did, and the
// run's verdict was "nothing of the server reached a request". Under
// local-model it defines them renamed the same way, and the definitions
// are found.
func TestLocateToolsRenamed(t *testing.T) {
	var tools []NamedText
	data, err := os.ReadFile("testdata/tools/server-filesystem@2026.8.31.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &tools); err != nil || len(tools) != 14 {
		t.Fatalf("%d tools, %v", len(tools), err)
	}
	text, err := os.ReadFile("testdata/tools/codex@0.171.0.txt")
	if err != nil {
		t.Fatal(err)
	}
	ctx := fakeapi.Context{{Kind: fakeapi.KindDeveloperMessage, Path: "input[1].content[1].text", Text: string(text)}}
	for _, f := range locateTools(ctx, tools, "server-filesystem") {
		if f.Via != ViaNamespace || f.Found || f.Wrapper != "<tools> … Deferred tool namespaces:" {
			t.Errorf("%s: %+v, want its server's namespace, renamed", f.Name, f)
		}
	}
	if fs := locateTools(ctx, tools, "other-server"); fs[0].Via != "" {
		t.Errorf("another server's namespace read as this one's: %+v", fs[0])
	}

	def := func(name, desc string) fakeapi.Segment {
		b, _ := json.Marshal(map[string]string{"name": name, "description": desc})
		return fakeapi.Segment{Kind: fakeapi.KindToolDefinition, Name: name, Text: string(b)}
	}
	hyphen := []NamedText{{Name: "get-env", Description: "Returns all environment variables."}, {Name: "get_env", Description: "Another tool."}}
	got := locateTools(fakeapi.Context{def("mcp__server_everything__get_env", "Another tool.")}, hyphen, "server-everything")
	if got[0].Found || got[1].Via != ViaDefinition || !got[1].Full {
		t.Errorf("get-env beside get_env: %+v; want get_env's definition taken for get_env alone", got)
	}
	got = locateTools(fakeapi.Context{def("mcp__server_everything__get_env", "Returns all environment variables.")}, hyphen[:1], "server-everything")
	if got[0].Via != ViaDefinition || !got[0].Full {
		t.Errorf("get-env renamed get_env: %+v, want its definition found whole", got[0])
	}
}

// TestLocateToolsCodeMode reads two servers' tool descriptions in the one
// definition through which two real clients in code mode offer a server's
// tools (testdata/tools, from run -server evidence, 2026-12-05): opencode
// 1.18.33's execute lists each tool's signature with its description
// after "//", cut to 119 characters and "..." when longer, Qwen Code
// 0.24.4's exec a catalogue of them as JSON, whole. Before, run took the
// definition for each tool's own and compared the description with the
// definition's own start: 0 or 1 character kept; and of two descriptions
// that start alike (server-filesystem's list_directory and
// list_directory_with_sizes, read_file and read_text_file), it read the
// first one's for both: 71 and 37 characters kept.
func TestLocateToolsCodeMode(t *testing.T) {
	for _, c := range []struct {
		server, file, name string
		cap                int // characters kept of a longer description, then "..."; 0: none cut
	}{
		{"server-everything", "opencode@1.18.33-code-mode.json", "execute", 119},
		{"server-everything", "qwen@0.24.4-code-mode-only.json", "exec", 0},
		{"server-filesystem", "opencode@1.18.33-code-mode-filesystem.json", "execute", 119},
		{"server-filesystem", "qwen@0.24.4-code-mode-only-filesystem.json", "exec", 0},
	} {
		tools := serverTools(t, c.server)
		raw, err := os.ReadFile("testdata/tools/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		if err := json.Compact(&text, raw); err != nil {
			t.Fatal(err)
		}
		ctx := fakeapi.Context{{Kind: fakeapi.KindToolDefinition, Name: c.name, Text: text.String()}}
		cut := 0
		for _, f := range locateTools(ctx, tools, c.server) {
			switch {
			case f.Via != ViaDefinition || f.As != c.name:
				t.Errorf("%s: %s: %+v, want in %s", c.file, f.Name, f, c.name)
			case c.cap > 0 && f.Sent > c.cap+3:
				cut++
				if f.Full || f.Kept != c.cap || !strings.HasPrefix(f.Suffix, "...") {
					t.Errorf("%s: %s: %+v, want %d characters kept, then ...", c.file, f.Name, f, c.cap)
				}
			case !f.Full:
				t.Errorf("%s: %s: %+v, want whole", c.file, f.Name, f)
			}
		}
		if c.cap > 0 && cut == 0 {
			t.Errorf("%s: no description longer than %d characters", c.file, c.cap)
		}
	}
}

// serverTools are the tools of server (server-everything or
// server-filesystem, 2026.8.31), as it listed them.
func serverTools(t *testing.T, server string) []NamedText {
	t.Helper()
	var tools []NamedText
	data, err := os.ReadFile("testdata/tools/" + server + "@2026.8.31.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &tools); err != nil {
		t.Fatal(err)
	}
	return tools
}
