package main

import (
	"context"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addCoachPrompt adds the coach prompt, which carries the active persona.
// Clients may ignore server instructions; a prompt the user invokes is the
// path that always reaches the model.
func addCoachPrompt(s *mcp.Server, st *coach.Store) {
	s.AddPrompt(&mcp.Prompt{
		Name:        "coach",
		Title:       "Coach persona",
		Description: "Take on the active coach persona (the same text as the server instructions).",
	}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		p, err := st.Active(ctx)
		if err != nil {
			return nil, err
		}
		return &mcp.GetPromptResult{
			Description: "Coach persona: " + p.Name,
			Messages: []*mcp.PromptMessage{{
				Role:    "user",
				Content: &mcp.TextContent{Text: "For the rest of this conversation, coach me in this voice.\n\n" + p.Text},
			}},
		}, nil
	})
}
