package lab

import (
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The names of SurfaceNames' tools. NameLong is 60 characters: within the
// 64 many model APIs allow, past it with a client's prefix (mcp__lab__ is
// 10 more); NameMax is 128, the most the specification allows.
var (
	NameLong    = padName("name_long_", 60)
	NameMax     = padName("name_max_", 128)
	NameDotted  = "name.dotted.case"
	NameHyphen  = "name-hyphen-case"
	NameUpper   = "NAME_Upper_Case"
	NameUnicode = "name_ünïcødé_名前" // outside the specification's A-Z a-z 0-9 _ - .
	// NamePrefix is the start of NamePrefixed, as list_directory is of
	// server-filesystem's list_directory_with_sizes.
	NamePrefix   = "name_prefix"
	NamePrefixed = "name_prefix_with_more"
	// NamePadded's description is its text between PaddedLead and
	// PaddedTail: white space a client may trim, or keep, at either end
	// (a description written in a template literal). Their lengths differ,
	// so how many characters a client removed says from which end.
	NamePadded = "name_padded"
	PaddedLead = "\n\n  "
	PaddedTail = " \n"
	// NameTwin is SurfaceTwin's tool: every lab of a run of several has it.
	NameTwin = "twin_tool"
)

// padName pads prefix with letters to n bytes.
func padName(prefix string, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	b.WriteString(prefix)
	for i := 0; b.Len() < n; i++ {
		b.WriteByte(letters[i%len(letters)])
	}
	return b.String()
}

// nameTools are SurfaceNames: one tool per kind of name. Each answers a
// call with its codeword sentence, so that the lab's log and the next
// model request show the call went through under the name the model saw.
func nameTools(seed string) []SurfaceTool {
	var out []SurfaceTool
	for _, n := range []struct{ name, c string }{
		{NameLong, "60 characters, past 64 with a prefix"},
		{NameMax, "128 characters"},
		{NameDotted, "dots"},
		{NameHyphen, "hyphens"},
		{NameUpper, "upper case"},
		{NameUnicode, "not ASCII"},
	} {
		out = append(out, nameTool(seed, n.name, n.c, "A tool whose name has "+n.c+"."))
	}
	out = append(out,
		nameTool(seed, NamePrefix, "a prefix of another name", "A tool whose name is the start of another tool's name."),
		nameTool(seed, NamePrefixed, "another name as its prefix", "A tool whose name starts with another tool's whole name."))
	padded := nameTool(seed, NamePadded, "white space around its description", "A tool whose description has white space around it.")
	padded.Tool.Description = PaddedLead + padded.Tool.Description + PaddedTail
	return append(out, padded)
}

// twinTool is SurfaceTwin's tool, told apart between labs by its seeded
// description.
func twinTool(seed string) SurfaceTool {
	return nameTool(seed, NameTwin, "two servers, one tool name", "A tool every lab of the run has, under one name.")
}

func nameTool(seed, name, c, what string) SurfaceTool {
	desc, key := describe(seed, name, what)
	return SurfaceTool{Case: c, Key: key, Tool: &mcp.Tool{Name: name, Description: desc, InputSchema: emptyInput},
		call: func() (*mcp.CallToolResult, error) { return textResult(surfaceText(seed, name, "content text")) }}
}
