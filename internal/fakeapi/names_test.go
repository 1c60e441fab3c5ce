package fakeapi

import (
	"encoding/json"
	"slices"
	"testing"
)

// def is a tool definition segment named name (in namespace ns) with
// description desc.
func def(ns, name, desc string) Segment {
	b, _ := json.Marshal(map[string]string{"name": name, "description": desc})
	return Segment{Kind: KindToolDefinition, Name: name, Namespace: ns, Text: string(b)}
}

// TestNamesFind holds the classes of real servers' names that a
// request's definitions were once taken wrongly for (server-filesystem
// through ten clients, 2026-12-05): a name that another tool's name
// starts or ends with, a client's own tool with the server tool's bare
// name, a name in two namespaces, a hidden tool whose neighbour shares
// its description's start.
func TestNamesFind(t *testing.T) {
	const (
		listDesc  = "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish"
		sizesDesc = "Get a detailed listing of all files and directories in a specified path, including sizes."
		readDesc  = "Read the complete contents of a file from the file system."
	)
	fs := Names{Server: "server-filesystem", Tools: []string{"read_file", "list_directory", "list_directory_with_sizes", "directory"}}
	gemini := Context{
		def("", "read_file", "Gemini CLI's own: reads a file."),
		def("", "list_directory", "Gemini CLI's own: lists a directory."),
		def("", "mcp_server-filesystem_read_file", readDesc),
		def("", "mcp_server-filesystem_list_directory_with_sizes", sizesDesc),
		def("", "mcp_server-filesystem_list_directory", listDesc),
	}
	for _, tc := range []struct {
		name   string
		names  Names
		ctx    Context
		tool   string
		key    string
		want   string // the definition's name, "" for none
		wantNS string
	}{
		{"a name another starts with, one key for both", fs, gemini, "list_directory", DescriptionKey(listDesc), "mcp_server-filesystem_list_directory", ""},
		{"the longer of the two", fs, gemini, "list_directory_with_sizes", DescriptionKey(sizesDesc), "mcp_server-filesystem_list_directory_with_sizes", ""},
		{"the client's own tool of the bare name, no key", Names{Server: "server-filesystem"}, gemini, "read_file", "", "mcp_server-filesystem_read_file", ""},
		{"the client's own tool of the bare name, by key", Names{}, gemini, "read_file", DescriptionKey(readDesc), "mcp_server-filesystem_read_file", ""},
		{"bare names (Continue): the server's", fs, Context{def("", "list_directory", listDesc), def("", "list_directory_with_sizes", sizesDesc)}, "list_directory", "", "list_directory", ""},
		{"a name another ends with", fs, Context{def("", "mcp__server-filesystem__list_directory", listDesc), def("", "mcp__server-filesystem__directory", "d")}, "directory", "", "mcp__server-filesystem__directory", ""},
		{"a name another ends with, its server not known", Names{Tools: fs.Tools}, Context{def("", "mcp__x__list_directory", listDesc), def("", "mcp__x__directory", "d")}, "directory", "", "mcp__x__directory", ""},
		{"hidden: not another's definition", fs, Context{def("", "mcp__server-filesystem__list_directory_with_sizes", sizesDesc)}, "list_directory", DescriptionKey(listDesc), "", ""},
		{"hidden, the other ends with it", fs, Context{def("", "mcp__server-filesystem__list_directory", listDesc)}, "directory", "", "", ""},
		{"the server's namespace (Codex)", fs, Context{def("mcp__other", "list_directory", "x"), def("mcp__server_filesystem", "list_directory", listDesc)}, "list_directory", "", "list_directory", "mcp__server_filesystem"},
		{"two namespaces, server not known", Names{}, Context{def("mcp__lab", "echo", "a"), def("mcp__lab2", "echo", "b")}, "echo", "", "", ""},
		{"two namespaces, by key", Names{}, Context{def("mcp__lab", "echo", "codeword alpha"), def("mcp__lab2", "echo", "codeword bravo")}, "echo", "codeword bravo", "echo", "mcp__lab2"},
		{"renamed beyond recognition, by key", fs, Context{def("", "lab___read_fi_1a2b3c4d", readDesc)}, "read_file", DescriptionKey(readDesc), "lab___read_fi_1a2b3c4d", ""},
		{"a renamed form another tool has", Names{Server: "s", Tools: []string{"get-env", "get_env"}}, Context{def("", "mcp__s__get_env", "Another tool.")}, "get-env", "", "", ""},
		{"renamed, alone", Names{Server: "s", Tools: []string{"get-env"}}, Context{def("", "mcp__s__get_env", "Returns all environment variables.")}, "get-env", "", "mcp__s__get_env", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ok := tc.names.Find(tc.ctx, tc.tool, tc.key)
			if tc.want == "" {
				if ok {
					t.Errorf("found %s (namespace %q), want none", s.Name, s.Namespace)
				}
				return
			}
			if !ok || s.Name != tc.want || s.Namespace != tc.wantNS {
				t.Errorf("found %q in %q (%v), want %q in %q", s.Name, s.Namespace, ok, tc.want, tc.wantNS)
			}
		})
	}
}

// TestDescriptionKey: a description's leading space, which a client may
// trim, is not part of its key; a short one has none.
func TestDescriptionKey(t *testing.T) {
	if got, want := DescriptionKey("\n  Reads \"quoted\" text from a file on disk."), `Reads \"quoted\" text from a file on disk.`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := DescriptionKey("  short one"); got != "" {
		t.Errorf("short: %q", got)
	}
}

// TestPlanCallsTheServersTool: a scripted call that names its server
// calls the server's tool, not the client's own of the same bare name
// (Gemini CLI 0.61.0's list_directory: run -call list_directory on
// server-filesystem called Gemini's own, and the call never reached the
// server).
func TestPlanCallsTheServersTool(t *testing.T) {
	ctx := Context{
		{Kind: KindUserTurn, Text: "go"},
		def("", "list_directory", "Gemini CLI's own."),
		def("", "mcp_server-filesystem_list_directory", "The server's."),
	}
	r := plan([]Turn{{Calls: []Call{{Tool: "list_directory", Server: "server-filesystem"}}}}, ctx, "go", 2)
	if len(r.Calls) != 1 || r.Calls[0].Name != "mcp_server-filesystem_list_directory" {
		t.Errorf("calls %+v, want the server's tool", r.Calls)
	}
}

// TestPlanSkipsAClientsOpeningExchange: an assistant message the client
// puts before the user's prompt (Qwen Code 0.7.1's "Got it. Thanks for the
// context!" after its own context message) is no turn of the model's: the
// script's first turn is still called; one after the prompt is a turn.
// Without a message carrying the prompt every assistant message counts.
func TestPlanSkipsAClientsOpeningExchange(t *testing.T) {
	const prompt = "Call the lab's tools and tell me what each returned."
	opening := Context{
		{Kind: KindUserTurn, Message: 0, Text: "This is the Qwen Code. We are setting up the context for our chat."},
		{Kind: KindAssistantTurn, Message: 1, Text: "Got it. Thanks for the context!"},
		{Kind: KindUserTurn, Message: 2, Text: prompt},
		def("", "result_size", "Returns one long text."),
	}
	script := []Turn{{Calls: []Call{{Tool: "result_size", Server: "lab"}}}}
	if r := plan(script, opening, prompt, 1); len(r.Calls) != 1 || r.Calls[0].Name != "result_size" {
		t.Errorf("after an opening exchange: calls %+v, text %q; want result_size called", r.Calls, r.Text)
	}
	answered := append(slices.Clone(opening), Segment{Kind: KindAssistantTurn, Message: 3, Name: "result_size"})
	if r := plan(script, answered, prompt, 2); len(r.Calls) != 0 {
		t.Errorf("after the model's turn: calls %+v, want the reader's answer", r.Calls)
	}
	if r := plan(script, opening, "another prompt", 1); len(r.Calls) != 0 {
		t.Errorf("no message carries the prompt: calls %+v, want every assistant message counted", r.Calls)
	}
}
