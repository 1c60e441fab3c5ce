package lab

import (
	"bytes"
	"encoding/json"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resultTools are SurfaceResults: one tool per part of a result, each part
// with its own codeword sentence (surfaceText).
func resultTools(seed string) []SurfaceTool {
	text := func(tool, part string) *mcp.TextContent {
		return &mcp.TextContent{Text: surfaceText(seed, tool, part)}
	}
	structured := func(tool string) map[string]any {
		return map[string]any{"note": surfaceText(seed, tool, "structuredContent")}
	}
	tool := func(name, what, c string, out any, call func() (*mcp.CallToolResult, error)) SurfaceTool {
		desc, key := describe(seed, name, what)
		return SurfaceTool{Case: c, Key: key, call: call,
			Tool: &mcp.Tool{Name: name, Description: desc, InputSchema: emptyInput, OutputSchema: out}}
	}
	outSchema, _ := json.Marshal(map[string]any{"type": "object", "required": []string{"note"},
		"properties": map[string]any{"note": map[string]any{"type": "string", "description": surfaceText(seed, "result_outschema", "outputSchema")}}})
	return []SurfaceTool{
		tool("result_text", "Returns one text content block.", "content text", nil, func() (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{text("result_text", "content text")}}, nil
		}),
		tool("result_structured", "Returns structuredContent and an empty content list.", "structuredContent only", nil, func() (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: structured("result_structured")}, nil
		}),
		tool("result_both", "Returns a text content block and structuredContent, each with its own codeword.", "content and structuredContent", nil, func() (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{text("result_both", "content text")}, StructuredContent: structured("result_both")}, nil
		}),
		tool("result_error", "Fails: returns isError with a text content block.", "isError", nil, func() (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{text("result_error", "error text")}}, nil
		}),
		tool("result_image", "Returns a small PNG image.", "image", nil, func() (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: surfacePNG(seed, "result_image")}}}, nil
		}),
		tool("result_link", "Returns a resource_link.", "resource_link", nil, func() (*mcp.CallToolResult, error) {
			code := SurfaceCodeword(seed, "result_link", "uri")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ResourceLink{URI: "lab://surface/link/" + code, Name: "link-" + code,
				MIMEType: "text/plain", Description: surfaceText(seed, "result_link", "resource_link description")}}}, nil
		}),
		tool("result_resource", "Returns an embedded text resource.", "embedded resource", nil, func() (*mcp.CallToolResult, error) {
			code := SurfaceCodeword(seed, "result_resource", "uri")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "lab://surface/resource/" + code, MIMEType: "text/plain", Text: surfaceText(seed, "result_resource", "embedded resource text")}}}}, nil
		}),
		tool("result_meta", "Returns a text content block and _meta on the result.", "_meta on the result", nil, func() (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{text("result_meta", "content text")},
				Meta: mcp.Meta{"lab/note": surfaceText(seed, "result_meta", "_meta")}}, nil
		}),
		tool("result_audience", "Returns two text blocks, one annotated for the user and one for the assistant.", "content annotations.audience", nil, func() (*mcp.CallToolResult, error) {
			user, assistant := text("result_audience", "audience user"), text("result_audience", "audience assistant")
			user.Annotations = &mcp.Annotations{Audience: []mcp.Role{"user"}, Priority: 0.1}
			assistant.Annotations = &mcp.Annotations{Audience: []mcp.Role{"assistant"}, Priority: 0.9}
			return &mcp.CallToolResult{Content: []mcp.Content{user, assistant}}, nil
		}),
		tool("result_outschema", "Returns structuredContent that fits its outputSchema, and a text content block.", "outputSchema", json.RawMessage(outSchema), func() (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{text("result_outschema", "content text")}, StructuredContent: structured("result_outschema")}, nil
		}),
	}
}

// sizeTools are SurfaceSize: results of size's generated text, one plain,
// one whose tool asks Claude Code for room (anthropic/maxResultSizeChars).
func sizeTools(seed string, size Instructions) ([]SurfaceTool, error) {
	var out []SurfaceTool
	for _, t := range []struct {
		name, what, c string
		meta          mcp.Meta
	}{
		{"result_size", "Returns one long text.", "long result", nil},
		{"result_size_meta", "Returns one long text; its _meta asks for room for it.", "long result with anthropic/maxResultSizeChars", mcp.Meta{labvocab.MetaMaxResultSizeChars: 500000}},
	} {
		in := size
		in.Seed = seed + "/" + t.name
		txt, err := in.For(ReplyInitialize)
		if err != nil {
			return nil, err
		}
		desc, key := describe(seed, t.name, t.what)
		out = append(out, SurfaceTool{Case: t.c, Key: key,
			Tool: &mcp.Tool{Name: t.name, Description: desc, InputSchema: emptyInput, Meta: t.meta},
			call: func() (*mcp.CallToolResult, error) { return textResult(txt.Text) }})
	}
	return out, nil
}

// surfacePNG is the image a surface tool named item returns: 4x4 pixels
// whose colours come from the item's codeword, so that its base64 form is
// the item's own and can be found in a model request.
func surfacePNG(seed, item string) []byte {
	h := fnv.New64a()
	h.Write([]byte(SurfaceCodeword(seed, item, "image")))
	sum := h.Sum64()
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for i := range 16 {
		v := byte(sum >> (i % 8 * 8))
		img.Set(i%4, i/4, color.RGBA{v, byte(i * 16), 255 - v, 255})
	}
	var b bytes.Buffer
	png.Encode(&b, img) // cannot fail on a bytes.Buffer
	return b.Bytes()
}
