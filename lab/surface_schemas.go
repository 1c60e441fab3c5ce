package lab

import (
	"strings"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// schemaTools are SurfaceSchemas: one tool per labvocab.SchemaFeature.
func schemaTools(seed string) []SurfaceTool {
	var out []SurfaceTool
	for _, f := range labvocab.SchemaFeatures {
		name := "schema_" + strings.ReplaceAll(f.Name, "-", "_")
		desc, key := describe(seed, name, "Takes an input whose schema uses "+strings.Join(f.Keywords, ", ")+".")
		out = append(out, SurfaceTool{Case: strings.Join(f.Keywords, ", "), Key: key,
			Tool: &mcp.Tool{Name: name, Description: desc, InputSchema: f.Schema(surfaceText(seed, name, "property description"))},
			call: func() (*mcp.CallToolResult, error) { return textResult(surfaceText(seed, name, "content text")) }})
	}
	return out
}
