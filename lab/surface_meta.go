package lab

import (
	"context"
	"encoding/base64"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// metaTools are SurfaceMeta: one tool per _meta key, annotation, title and
// icon, and one whose annotations say it is destructive (a client may ask
// before it calls such a tool, or refuse it). A string value carries a
// codeword; a boolean is found by its key.
func metaTools(seed string) []SurfaceTool {
	no, yes := false, true
	var out []SurfaceTool
	for _, m := range []struct {
		name, c, what string
		set           func(t *mcp.Tool)
	}{
		{"meta_always_load", labvocab.MetaAlwaysLoad, "Its _meta asks to be loaded always.", func(t *mcp.Tool) { t.Meta = mcp.Meta{labvocab.MetaAlwaysLoad: true} }},
		{"meta_search_hint", labvocab.MetaSearchHint, "Its _meta has a search hint.", func(t *mcp.Tool) {
			t.Meta = mcp.Meta{labvocab.MetaSearchHint: surfaceText(seed, "meta_search_hint", "searchHint")}
		}},
		{"meta_lab_key", "_meta " + labvocab.MetaLabNote, "Its _meta has a key no client knows.", func(t *mcp.Tool) {
			t.Meta = mcp.Meta{labvocab.MetaLabNote: surfaceText(seed, "meta_lab_key", "_meta")}
		}},
		{"meta_annotations", "annotations", "It has every annotation.", func(t *mcp.Tool) {
			t.Annotations = &mcp.ToolAnnotations{Title: surfaceText(seed, "meta_annotations", "annotations title"),
				ReadOnlyHint: true, DestructiveHint: &no, IdempotentHint: true, OpenWorldHint: &no}
		}},
		{"meta_destructive", "annotations destructive", "Its annotations say it is destructive, not read-only, and reaches an open world.", func(t *mcp.Tool) {
			t.Annotations = &mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &yes}
		}},
		{"meta_title", "title", "It has a title.", func(t *mcp.Tool) { t.Title = surfaceText(seed, "meta_title", "title") }},
		{"meta_icon", "icons", "It has an icon.", func(t *mcp.Tool) {
			t.Icons = []mcp.Icon{{Source: "data:image/png;base64," + base64.StdEncoding.EncodeToString(surfacePNG(seed, "meta_icon")), MIMEType: "image/png"}}
		}},
	} {
		desc, key := describe(seed, m.name, m.what)
		t := &mcp.Tool{Name: m.name, Description: desc, InputSchema: emptyInput}
		m.set(t)
		name := m.name
		out = append(out, SurfaceTool{Case: m.c, Key: key, Tool: t,
			call: func() (*mcp.CallToolResult, error) { return textResult(surfaceText(seed, name, "content text")) }})
	}
	return out
}

// addPromptsAndResources adds SurfacePrompts' prompt, resource and resource
// template, each text with its codeword.
func addPromptsAndResources(s *mcp.Server, seed string) {
	s.AddPrompt(&mcp.Prompt{Name: labvocab.SurfacePrompt, Title: surfaceText(seed, labvocab.SurfacePrompt, "title"),
		Description: surfaceText(seed, labvocab.SurfacePrompt, "description"),
		Arguments:   []*mcp.PromptArgument{{Name: "part", Description: surfaceText(seed, labvocab.SurfacePrompt, "argument description")}},
	}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Description: surfaceText(seed, labvocab.SurfacePrompt, "result description"),
			Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: surfaceText(seed, labvocab.SurfacePrompt, "message")}}}}, nil
	})
	read := func(uri, item string) mcp.ResourceHandler {
		return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: surfaceText(seed, item, "text")}}}, nil
		}
	}
	s.AddResource(&mcp.Resource{URI: labvocab.SurfaceResourceURI, Name: "lab_readme", MIMEType: "text/plain",
		Title: surfaceText(seed, "lab_readme", "title"), Description: surfaceText(seed, "lab_readme", "description")}, read(labvocab.SurfaceResourceURI, "lab_readme"))
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: labvocab.SurfaceTemplateURI, Name: "lab_part", MIMEType: "text/plain",
		Description: surfaceText(seed, "lab_part", "description")}, read(labvocab.SurfaceTemplateURI, "lab_part"))
}
