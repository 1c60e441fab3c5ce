package lab

import (
	"context"
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hugeResultChars is the length of bad_huge's text: 10 MiB of ASCII.
const hugeResultChars = 10 << 20

// badTools are SurfaceBad: results a client must survive. The SDK's types
// cannot express a result without content or with content of the wrong
// type, so those are sent Raw (rawCall); the SDK does not check the
// results of a tool added without types, so bad_structured's
// structuredContent goes out as it is, not fitting its outputSchema.
func badTools(seed string) []SurfaceTool {
	tool := func(name, what, c string) SurfaceTool {
		desc, key := describe(seed, name, what)
		return SurfaceTool{Case: c, Key: key, Tool: &mcp.Tool{Name: name, Description: desc, InputSchema: emptyInput}}
	}
	raw := func(v any) json.RawMessage {
		b, _ := json.Marshal(v)
		return b
	}
	noContent := tool("bad_no_content", "Answers with structuredContent and no content field.", "no content")
	noContent.Raw = raw(map[string]any{"structuredContent": map[string]any{"note": surfaceText(seed, "bad_no_content", "structuredContent")}})

	wrongType := tool("bad_content_type", "Answers with content that is a string, not a list.", "content of the wrong type")
	wrongType.Raw = raw(map[string]any{"content": surfaceText(seed, "bad_content_type", "content string")})

	mismatch := tool("bad_structured", "Answers with structuredContent that does not fit its outputSchema.", "structuredContent not fitting outputSchema")
	mismatch.Tool.OutputSchema = json.RawMessage(`{"type":"object","properties":{"note":{"type":"string"}},"required":["note"],"additionalProperties":false}`)
	mismatch.call = func() (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: surfaceText(seed, "bad_structured", "content text")}},
			StructuredContent: map[string]any{"count": surfaceText(seed, "bad_structured", "structuredContent")}}, nil
	}

	huge := tool("bad_huge", "Answers with a text of 10 MiB.", "10 MiB result")
	huge.call = func() (*mcp.CallToolResult, error) {
		t, err := Instructions{Language: English, Length: hugeResultChars, Seed: seed + "/bad_huge"}.For(ReplyInitialize)
		if err != nil {
			return nil, err
		}
		return textResult(t.Text)
	}

	// structuredContent must be an object (the specification); a server
	// may still send null, a string or an array, beside a content text.
	nonObject := func(name, what, c string, structured func(text string) any) SurfaceTool {
		t := tool(name, what, c)
		t.Raw = raw(map[string]any{
			"content":           []map[string]string{{"type": "text", "text": surfaceText(seed, name, "content text")}},
			"structuredContent": structured(surfaceText(seed, name, "structuredContent")),
		})
		return t
	}
	nullStructured := nonObject("bad_null_structured", "Answers with a content text and a null structuredContent.", "structuredContent null",
		func(string) any { return nil })
	stringStructured := nonObject("bad_string_structured", "Answers with a content text and a structuredContent that is a string.", "structuredContent a string",
		func(text string) any { return text })
	arrayStructured := nonObject("bad_array_structured", "Answers with a content text and a structuredContent that is an array.", "structuredContent an array",
		func(text string) any { return []string{text} })

	protocol := tool("bad_protocol_error", "Answers with a JSON-RPC error instead of a result.", "protocol error")
	protocol.call = func() (*mcp.CallToolResult, error) {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: surfaceText(seed, "bad_protocol_error", "error message")}
	}
	return []SurfaceTool{noContent, wrongType, mismatch, nullStructured, stringStructured, arrayStructured, huge, protocol}
}

// HangTool is the name of SurfaceHang's tool.
const HangTool = "bad_hang"

// hangTool is SurfaceHang's tool, which never answers, or answers after
// a time (after, -hang-for) with a text of its own, unless the client
// cancelled the call first (notifications/cancelled ends its context).
func hangTool(seed string, after time.Duration) SurfaceTool {
	if after <= 0 {
		desc, key := describe(seed, HangTool, "Never answers.")
		return SurfaceTool{Case: "never answers", Key: key, Hang: true, Tool: &mcp.Tool{Name: HangTool, Description: desc, InputSchema: emptyInput}}
	}
	desc, key := describe(seed, HangTool, "Answers after "+after.String()+".")
	t := SurfaceTool{Case: "answers after " + after.String(), Key: key, Tool: &mcp.Tool{Name: HangTool, Description: desc, InputSchema: emptyInput}}
	t.ask = func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := sleep(ctx, after); err != nil {
			return nil, err
		}
		return textResult(surfaceText(seed, HangTool, "result"))
	}
	return t
}

// rawCall answers a call of a Raw or Hang tool in the middleware, before
// the SDK: ok is false for any other call.
func (l *Lab) rawCall(ctx context.Context, req mcp.Request) (mcp.Result, bool, error) {
	p, _ := req.GetParams().(*mcp.CallToolParamsRaw)
	if p == nil {
		return nil, false, nil
	}
	t, found := l.surface[p.Name]
	switch {
	case !found:
		return nil, false, nil
	case t.Hang:
		<-ctx.Done()
		return nil, true, ctx.Err()
	case t.Raw != nil:
		return &rawCallResult{CallToolResult: &mcp.CallToolResult{}, raw: t.Raw}, true, nil
	}
	return nil, false, nil
}

// A rawCallResult is a tools/call result sent as raw JSON, unchecked.
type rawCallResult struct {
	*mcp.CallToolResult
	raw json.RawMessage
}

func (r *rawCallResult) MarshalJSON() ([]byte, error) { return r.raw, nil }
