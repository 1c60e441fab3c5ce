package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// Gemini is the Gemini API: POST /v1beta/models/MODEL:generateContent,
// :streamGenerateContent (SSE with ?alt=sse) and :countTokens. Gemini CLI
// speaks it. A request whose generationConfig asks for JSON with a schema
// (the CLI's routing classifier) gets a value that fits the schema.
type Gemini struct{}

// Name implements API.
func (Gemini) Name() string { return "gemini" }

var geminiPathRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^/v1[a-z0-9]*/models/[^/:]+:(generateContent|streamGenerateContent|countTokens)$`)
})

// Match implements API.
func (Gemini) Match(method, path string) bool {
	return method == http.MethodPost && geminiPathRE().MatchString(path)
}

type geminiPart struct {
	Text         *string         `json:"text"`
	Thought      bool            `json:"thought"`
	FunctionCall *geminiCall     `json:"functionCall"`
	FunctionResp *geminiCallResp `json:"functionResponse"`
	InlineData   *geminiBlob     `json:"inlineData"`
	FileData     *struct {
		MimeType string `json:"mimeType"`
		FileURI  string `json:"fileUri"`
	} `json:"fileData"`
}

type geminiBlob struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

type geminiCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type geminiCallResp struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
	// Parts carry media of the result (multimodal function responses).
	Parts []geminiPart `json:"parts"`
}

type geminiContent struct {
	Role  string       `json:"role"`
	Parts []geminiPart `json:"parts"`
}

type geminiBody struct {
	Contents          []geminiContent `json:"contents"`
	SystemInstruction json.RawMessage `json:"systemInstruction"`
	Tools             []struct {
		FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
	} `json:"tools"`
	// countTokens wraps the request in generateContentRequest.
	GenerateContentRequest *geminiBody `json:"generateContentRequest"`
}

// Context implements API. The order is the function declarations, the
// system instruction (KindSystem), then the contents: role "model" is an
// assistant turn, a functionResponse part a tool result, anything else a
// user turn.
func (Gemini) Context(body []byte) (Context, error) {
	var b geminiBody
	if err := json.Unmarshal(body, &b); err != nil {
		return nil, fmt.Errorf("decoding gemini request: %w", err)
	}
	if b.GenerateContentRequest != nil && len(b.Contents) == 0 {
		b = *b.GenerateContentRequest
	}
	var ctx Context
	n := 0
	for i, t := range b.Tools {
		for j, d := range t.FunctionDeclarations {
			ctx = append(ctx, Segment{Kind: KindToolDefinition, Message: n, Path: fmt.Sprintf("tools[%d].functionDeclarations[%d]", i, j),
				Name: toolName(d), Text: string(d)})
			n++
		}
	}
	if len(b.SystemInstruction) > 0 && string(b.SystemInstruction) != "null" {
		var sys geminiContent
		var s string
		switch {
		case json.Unmarshal(b.SystemInstruction, &s) == nil:
			ctx = append(ctx, Segment{Kind: KindSystem, Path: "systemInstruction", Text: s})
		case json.Unmarshal(b.SystemInstruction, &sys) == nil:
			ctx = appendGeminiParts(ctx, KindSystem, 0, "systemInstruction", sys.Parts)
		default:
			ctx = append(ctx, Segment{Kind: KindSystem, Path: "systemInstruction", Text: string(b.SystemInstruction)})
		}
	}
	for i, c := range b.Contents {
		kind := KindUserTurn
		if c.Role == "model" {
			kind = KindAssistantTurn
		}
		n := len(ctx)
		ctx = appendGeminiParts(ctx, kind, i, fmt.Sprintf("contents[%d]", i), c.Parts)
		if kind == KindAssistantTurn && len(ctx) == n {
			ctx = append(ctx, Segment{Kind: kind, Message: i, Path: fmt.Sprintf("contents[%d]", i)})
		}
	}
	return ctx, nil
}

func appendGeminiParts(ctx Context, kind Kind, msg int, path string, parts []geminiPart) Context {
	for j, p := range parts {
		pp := fmt.Sprintf("%s.parts[%d]", path, j)
		switch {
		case p.FunctionCall != nil:
			ctx = append(ctx, Segment{Kind: KindAssistantTurn, Message: msg, Path: pp + ".functionCall.args", Name: p.FunctionCall.Name, Text: string(p.FunctionCall.Args)})
		case p.FunctionResp != nil:
			r := p.FunctionResp
			// Answered by name: the fake's calls carry no id, and the one
			// a client sends back is its own (Gemini CLI 0.61.0 makes up
			// NAME_MILLIS_INDEX).
			call := r.Name
			n := len(ctx)
			ctx = append(ctx, Segment{Kind: KindToolResult, Message: msg, Path: pp + ".functionResponse.response", Name: r.Name, Text: string(r.Response)})
			ctx = appendGeminiParts(ctx, KindToolResult, msg, pp+".functionResponse", r.Parts)
			for k := n; k < len(ctx); k++ {
				ctx[k].Call = call
			}
		case p.InlineData != nil:
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: pp + ".inlineData", Media: p.InlineData.MimeType, Data: p.InlineData.Data})
		case p.FileData != nil:
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: pp + ".fileData", Media: p.FileData.MimeType, Data: p.FileData.FileURI})
		case p.Text != nil && !p.Thought:
			ctx = append(ctx, Segment{Kind: kind, Message: msg, Path: pp + ".text", Text: *p.Text})
		}
	}
	return ctx
}

// Write implements API.
func (Gemini) Write(w http.ResponseWriter, path string, body []byte, reply Reply) error {
	w.Header().Set("Content-Type", "application/json")
	if strings.HasSuffix(path, ":countTokens") {
		return json.NewEncoder(w).Encode(map[string]int{"totalTokens": reply.InputTokens})
	}
	var b struct {
		GenerationConfig struct {
			ResponseMimeType   string          `json:"responseMimeType"`
			ResponseSchema     json.RawMessage `json:"responseSchema"`
			ResponseJSONSchema json.RawMessage `json:"responseJsonSchema"`
		} `json:"generationConfig"`
	}
	_ = json.Unmarshal(body, &b)
	text := reply.Text
	if g := b.GenerationConfig; len(reply.Calls) == 0 && g.ResponseMimeType == "application/json" {
		schema := g.ResponseJSONSchema
		if len(schema) == 0 {
			schema = g.ResponseSchema
		}
		text = string(fitSchema(schema, reply.Text))
	}
	parts := []any{map[string]any{"text": text}}
	if len(reply.Calls) > 0 {
		parts = nil
		for _, c := range reply.Calls {
			parts = append(parts, map[string]any{"functionCall": map[string]any{"name": c.Name, "args": c.Input}})
		}
	}
	model := "fake-model"
	if i := strings.Index(path, "/models/"); i >= 0 {
		model, _, _ = strings.Cut(path[i+len("/models/"):], ":")
	}
	outTokens := reply.outputTokens(text)
	resp := map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]int{"promptTokenCount": reply.InputTokens, "candidatesTokenCount": outTokens,
			"totalTokenCount": reply.InputTokens + outTokens},
		"modelVersion": model,
		"responseId":   "fake" + reply.num(),
	}
	if !strings.HasSuffix(path, ":streamGenerateContent") {
		return json.NewEncoder(w).Encode(resp)
	}
	sse := newSSE(w)
	sse.event("", resp)
	return sse.err
}
