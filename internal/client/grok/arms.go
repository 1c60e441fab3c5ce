package grok

import "github.com/instrlab/instrlab/internal/client"

// arms are the arms of the versions whose shipped code was read
// (docs/clients.md, "Models and approval modes"). Its headless -p sets
// the confirmation service's allOperations flag, so every call runs
// without approval in every mode: it has no approval arm. Its code
// branches on the model in one place, isGrokModel (an id containing
// "grok"), which turns its provider's web search on (search_parameters
// mode auto, else off) for a prompt that looks for news; the arms pin ids
// of its own model list and one of its README's other providers.
var arms = map[string][]client.Arm{
	"0.0.34": {
		{Name: "default", Default: true,
			Says: "grok-code-fast-1, its default model; -p approves every operation (confirmation flag allOperations)"},
		{Name: "model-grok-4-latest", Model: "grok-4-latest",
			Says: "in its model list (Grok 4 flagship); a grok id: web search on for a prompt that asks for news"},
		{Name: "model-grok-3-mini-fast", Model: "grok-3-mini-fast",
			Says: "in its model list (Grok 3, the smallest); a grok id: web search on for a prompt that asks for news"},
		{Name: "model-gemini-2-5-pro", Model: "gemini-2.5-pro",
			Says: "its README's example of another provider's model at another base URL; not a grok id: web search off (search_parameters mode off) for every prompt"},
	},
}

// Arms implements client.Armed.
func (g *Grok) Arms() []client.Arm { return arms[g.Version] }
