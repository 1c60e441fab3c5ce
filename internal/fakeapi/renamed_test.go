package fakeapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The lab's names tools, as the surface matrix calls them (lab's
// surface_names.go; lab is not imported here: fakeapi knows no server).
const (
	nameLong    = "name_long_abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwx" // 60
	nameDotted  = "name.dotted.case"
	nameUnicode = "name_ünïcødé_名前"
)

// TestRenamed: a client's name for a tool it cut (with a hash or suffix
// after it) or whose characters it made '_' is the server's tool; a name
// that only starts like it, or ends in a word rather than a hash, is not.
func TestRenamed(t *testing.T) {
	tests := []struct {
		client, tool string
		want         bool
	}{
		{"lab___name_long_abcdefghijklmnopqrstuvwxyzabcdefghijklm_ed6edf49", nameLong, true}, // Droid 0.225.2
		{"mcp__lab__name_long_abcdefghijklmnopqrstuvwxyza_0sembdu", nameLong, true},          // Qwen Code 0.24.4
		{"lab___name_dotted_case", nameDotted, true},                                         // Droid
		{"mcp__lab__name_dotted_case_1wpy6f5", nameDotted, true},                             // Qwen Code
		{"lab___name__n_c_d____", nameUnicode, true},                                         // Droid
		{"mcp__lab__name__n_c_d_____19o07p8", nameUnicode, true},                             // Qwen Code
		{"mcp__lab__result_size_meta", "result_size", false},                                 // a word, not a hash
		{"mcp__lab__fetch_user_2024", "fetch", false},                                        // not a cut of fetch: user is left
		{"mcp__lab__name_max_abcdefgh_0sembdu", nameLong, false},                             // another name
		{"name_dotted_case", nameDotted, true},                                               // Codex 0.171.0, in its namespace mcp__lab
		{"mcp__lab__name_lo_0sembdu", nameLong, false},                                       // a cut that keeps under 8 characters
		{"get_structured_content", "get-structured-content", true},                           // Codex 0.171.0, server-everything's tool
		{"mcp__everything__get_structured_content", "get-structured-content", true},          // the same behind a prefix
		{"get-structured-content", "get_structured_content", false},                          // '_' is never made '-'
		{"get_structured", "get-structured-content", false},                                  // a cut without a suffix
	}
	for _, tt := range tests {
		if got := Renamed(tt.client, tt.tool); got != tt.want {
			t.Errorf("Renamed(%q, %q) = %v, want %v", tt.client, tt.tool, got, tt.want)
		}
	}
}

// TestRenamedWhole: renamed with every character of the name kept (made
// '_' or not, a suffix after it or not), never cut before a hash.
func TestRenamedWhole(t *testing.T) {
	tests := []struct {
		client, tool string
		want         bool
	}{
		{"mcp__lab__name_dotted_case_1wpy6f5", nameDotted, true},                                                                                    // Qwen Code: whole, then a suffix
		{"lab___name_dotted_case", nameDotted, true},                                                                                                // Droid: made '_'
		{"get_structured_content", "get-structured-content", true},                                                                                  // Codex: '-' made '_'
		{"lab___name_long_abcdefghijklmnopqrstuvwxyzabcdefghijklm_ed6edf49", nameLong, false},                                                       // Droid: cut, then a hash
		{"lab__lnameabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrs_01e3c110", "lnameabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabc", false}, // Cline: cut, then a hash
		{"mcp__lab__name_max_abcdefgh_0sembdu", nameLong, false},                                                                                    // another name
	}
	for _, tt := range tests {
		if got := RenamedWhole(tt.client, tt.tool); got != tt.want {
			t.Errorf("RenamedWhole(%q, %q) = %v, want %v", tt.client, tt.tool, got, tt.want)
		}
		if tt.want && !Renamed(tt.client, tt.tool) {
			t.Errorf("RenamedWhole(%q, %q) but not Renamed", tt.client, tt.tool)
		}
	}
}

// TestLoadRenamedDeferred: a deferring client that lists the server's
// tools renamed (Droid: by name only, cut with a hash, dots and letters
// outside ASCII made '_') gets them loaded through its loader under those
// names, then called under the names its definitions give them, found by
// their keys; a client whose loader defines nothing (Qwen Code) gets them
// called through its invoker under the listed names.
func TestLoadRenamedDeferred(t *testing.T) {
	droid := map[string]string{
		nameLong:    "lab___name_long_abcdefghijklmnopqrstuvwxyzabcdefghijklm_ed6edf49",
		nameDotted:  "lab___name_dotted_case",
		nameUnicode: "lab___name__n_c_d____",
	}
	var calls []Call
	var listing strings.Builder
	listing.WriteString("Deferred tools:\n")
	for i, tool := range []string{nameLong, nameDotted, nameUnicode} {
		calls = append(calls, Call{Tool: tool, Key: "KEY-" + string(rune('A'+i))})
		listing.WriteString(droid[tool] + "\n")
	}
	script := []Turn{{Calls: calls}}
	first := Context{{Kind: KindToolDefinition, Name: "ToolSearch", Text: `{"name":"ToolSearch"}`},
		{Kind: KindSystemMessage, Text: listing.String()}, {Kind: KindUserTurn, Text: "go"}}
	r := plan(script, first, "go", 1)
	if len(r.Calls) != 1 || r.Calls[0].Name != "ToolSearch" {
		t.Fatalf("first reply %+v, want one ToolSearch call", r)
	}
	want := `{"max_results":3,"query":"select:` + droid[nameLong] + "," + droid[nameDotted] + "," + droid[nameUnicode] + `"}`
	if string(r.Calls[0].Input) != want {
		t.Errorf("loader input %s, want %s", r.Calls[0].Input, want)
	}
	ctx := append(first, Segment{Kind: KindAssistantTurn, Message: 2, Name: "ToolSearch", Text: string(r.Calls[0].Input)},
		Segment{Kind: KindToolResult, Message: 3, Call: r.Calls[0].ID, Text: "loaded"})
	for i, tool := range []string{nameLong, nameDotted, nameUnicode} {
		ctx = append(ctx, Segment{Kind: KindToolDefinition, Name: droid[tool], Text: `{"description":"KEY-` + string(rune('A'+i)) + `"}`})
	}
	r = plan(script, ctx, "go", 2)
	var got []string
	for _, c := range r.Calls {
		got = append(got, c.Tool+" as "+c.Name)
	}
	wantCalls := []string{nameLong + " as " + droid[nameLong], nameDotted + " as " + droid[nameDotted], nameUnicode + " as " + droid[nameUnicode]}
	if diff := cmp.Diff(wantCalls, got); diff != "" {
		t.Errorf("calls after loading mismatch (-want +got):\n%s", diff)
	}
	// Without keys, a renamed definition is still the one that names
	// the tool.
	if name, ok := Offered(ctx, nameDotted, ""); !ok || name != droid[nameDotted] {
		t.Errorf("Offered(%q) without a key = %q, %v; want %q", nameDotted, name, ok, droid[nameDotted])
	}

	qwen := map[string]string{
		nameLong:    "mcp__lab__name_long_abcdefghijklmnopqrstuvwxyza_0sembdu",
		nameDotted:  "mcp__lab__name_dotted_case_1wpy6f5",
		nameUnicode: "mcp__lab__name__n_c_d_____19o07p8",
	}
	listing.Reset()
	for i, tool := range []string{nameLong, nameDotted, nameUnicode} {
		listing.WriteString(`- "` + qwen[tool] + `": "A tool. KEY-` + string(rune('A'+i)) + "\"\n")
	}
	first = Context{{Kind: KindToolDefinition, Name: "tool_search", Text: `{"name":"tool_search"}`},
		{Kind: KindToolDefinition, Name: "tool_call", Text: `{"name":"tool_call"}`},
		{Kind: KindUserTurn, Message: 1, Text: listing.String()}}
	r = plan(script, first, "go", 1)
	if len(r.Calls) != 1 || r.Calls[0].Name != "tool_search" {
		t.Fatalf("first reply %+v, want one tool_search call", r.Calls)
	}
	ctx = append(first, Segment{Kind: KindAssistantTurn, Message: 2, Name: "tool_search", Text: string(r.Calls[0].Input)},
		Segment{Kind: KindToolResult, Message: 3, Call: r.Calls[0].ID, Text: "<functions>...</functions>"})
	r = plan(script, ctx, "go", 2)
	got = nil
	for _, c := range r.Calls {
		var in struct {
			Name string `json:"name"`
		}
		json.Unmarshal(c.Input, &in)
		got = append(got, c.Tool+" as "+c.Name+" "+c.Deferred+" "+in.Name)
	}
	wantCalls = nil
	for _, tool := range []string{nameLong, nameDotted, nameUnicode} {
		wantCalls = append(wantCalls, tool+" as tool_call "+qwen[tool]+" "+qwen[tool])
	}
	if diff := cmp.Diff(wantCalls, got); diff != "" {
		t.Errorf("invoked calls mismatch (-want +got):\n%s", diff)
	}
}

// TestLoadClientsOwnDeferred: a client's own tool that it defers under its
// own name (Claude Code 2.1.332 lists ListMcpResourcesTool among its
// deferred tools) is loaded through its loader by that name, then called;
// before, only a server's tools behind a prefix or renamed were.
func TestLoadClientsOwnDeferred(t *testing.T) {
	script := []Turn{{Calls: []Call{{Tool: "ListMcpResourcesTool", Input: json.RawMessage(`{}`), Fit: true}}}}
	first := Context{{Kind: KindToolDefinition, Name: "ToolSearch", Text: `{"name":"ToolSearch"}`},
		{Kind: KindSystemMessage, Text: "<available-deferred-tools>\nListMcpResourcesTool\nReadMcpResourceTool\n</available-deferred-tools>"},
		{Kind: KindUserTurn, Text: "go"}}
	r := plan(script, first, "go", 1)
	if len(r.Calls) != 1 || r.Calls[0].Name != "ToolSearch" || !strings.Contains(string(r.Calls[0].Input), "select:ListMcpResourcesTool") {
		t.Fatalf("first reply %+v, want ToolSearch selecting ListMcpResourcesTool", r)
	}
	ctx := append(first, Segment{Kind: KindAssistantTurn, Message: 2, Name: "ToolSearch", Text: string(r.Calls[0].Input)},
		Segment{Kind: KindToolResult, Message: 3, Call: r.Calls[0].ID, Text: "loaded"},
		Segment{Kind: KindToolDefinition, Name: "ListMcpResourcesTool", Text: `{"name":"ListMcpResourcesTool","input_schema":{"type":"object","properties":{"server":{}}}}`})
	r = plan(script, ctx, "go", 2)
	if len(r.Calls) != 1 || r.Calls[0].Name != "ListMcpResourcesTool" {
		t.Errorf("after loading, reply %+v, want the call of ListMcpResourcesTool", r)
	}
}

// TestInvokeFitsTheLoadedDefinition: a call through Qwen Code's invoker
// (tool_call) of a tool its loader defined in a text (tool_search's
// <functions>) keeps only the properties that definition declares: Qwen
// Code 0.24.4 refused read_mcp_resource with server beside server_name
// ("params must NOT have additional properties").
func TestInvokeFitsTheLoadedDefinition(t *testing.T) {
	script := []Turn{{Calls: []Call{{Tool: "read_mcp_resource", Input: json.RawMessage(`{"server":"lab","server_name":"lab","uri":"lab://r"}`), Fit: true}}}}
	first := Context{{Kind: KindToolDefinition, Name: "tool_search", Text: `{"name":"tool_search"}`},
		{Kind: KindToolDefinition, Name: "tool_call", Text: `{"name":"tool_call"}`},
		{Kind: KindUserTurn, Message: 1, Text: `- "read_mcp_resource": "Reads a resource"`}}
	r := plan(script, first, "go", 1)
	if len(r.Calls) != 1 || r.Calls[0].Name != "tool_search" {
		t.Fatalf("first reply %+v, want one tool_search call", r.Calls)
	}
	ctx := append(first, Segment{Kind: KindAssistantTurn, Message: 2, Name: "tool_search", Text: string(r.Calls[0].Input)},
		Segment{Kind: KindToolResult, Message: 3, Call: r.Calls[0].ID,
			Text: `<functions><function>{"name":"read_mcp_resource","description":"Reads","parametersJsonSchema":{"type":"object","properties":{"server_name":{"type":"string"},"uri":{"type":"string"}},"additionalProperties":false}}</function></functions>`})
	r = plan(script, ctx, "go", 2)
	if len(r.Calls) != 1 || r.Calls[0].Name != "tool_call" {
		t.Fatalf("second reply %+v, want one tool_call", r.Calls)
	}
	var in struct {
		Arguments map[string]string `json:"arguments"`
	}
	if err := json.Unmarshal(r.Calls[0].Input, &in); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"server_name": "lab", "uri": "lab://r"}, in.Arguments); diff != "" {
		t.Errorf("arguments mismatch (-want +got):\n%s", diff)
	}
}
