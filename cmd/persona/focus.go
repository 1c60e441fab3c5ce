package main

import (
	"context"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// focusOut is the structured result of todays_focus.
type focusOut struct {
	Persona string `json:"persona" jsonschema:"the active persona"`
	Focus   string `json:"focus" jsonschema:"what to focus on today, in the persona's voice"`
}

// addFocusTool adds todays_focus, which answers in the active persona's
// voice. A database failure is a tool error, not a protocol error.
func addFocusTool(s *mcp.Server, st *coach.Store) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "todays_focus",
		Description: "What should I focus on today? Answers in the active coach persona's voice.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, focusOut, error) {
		p, err := st.Active(ctx)
		if err != nil {
			return nil, focusOut{}, err
		}
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: p.Focus}},
		}, focusOut{Persona: p.Name, Focus: p.Focus}, nil
	})
}
