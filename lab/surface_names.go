package lab

import (
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// nameTools are SurfaceNames: one tool per kind of name. Each answers a
// call with its codeword sentence, so that the lab's log and the next
// model request show the call went through under the name the model saw.
func nameTools(seed string) []SurfaceTool {
	var out []SurfaceTool
	for _, n := range []struct{ name, c string }{
		{labvocab.NameLong, "60 characters, past 64 with a prefix"},
		{labvocab.NameMax, "128 characters"},
		{labvocab.NameDotted, "dots"},
		{labvocab.NameHyphen, "hyphens"},
		{labvocab.NameUpper, "upper case"},
		{labvocab.NameUnicode, "not ASCII"},
	} {
		out = append(out, nameTool(seed, n.name, n.c, "A tool whose name has "+n.c+"."))
	}
	out = append(out,
		nameTool(seed, labvocab.NamePrefix, "a prefix of another name", "A tool whose name is the start of another tool's name."),
		nameTool(seed, labvocab.NamePrefixed, "another name as its prefix", "A tool whose name starts with another tool's whole name."))
	padded := nameTool(seed, labvocab.NamePadded, "white space around its description", "A tool whose description has white space around it.")
	padded.Tool.Description = labvocab.PaddedLead + padded.Tool.Description + labvocab.PaddedTail
	return append(out, padded)
}

// twinTool is SurfaceTwin's tool, told apart between labs by its seeded
// description.
func twinTool(seed string) SurfaceTool {
	return nameTool(seed, labvocab.NameTwin, "two servers, one tool name", "A tool every lab of the run has, under one name.")
}

func nameTool(seed, name, c, what string) SurfaceTool {
	desc, key := describe(seed, name, what)
	return SurfaceTool{Case: c, Key: key, Tool: &mcp.Tool{Name: name, Description: desc, InputSchema: emptyInput},
		call: func() (*mcp.CallToolResult, error) { return textResult(surfaceText(seed, name, "content text")) }}
}
