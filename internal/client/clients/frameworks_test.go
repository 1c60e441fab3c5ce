package clients

import (
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
)

// TestFrameworks: each framework's adapter states what its host's
// documentation's app uses: the model (or the framework's own default,
// ""), the bound on turns (0: the framework's own), the package whose
// releases are its versions, its arms; and each points its provider's
// client at the run's fake with the dummy key (OpenAI's under /v1), with
// its own telemetry off where the framework has some (extra).
func TestFrameworks(t *testing.T) {
	for _, tt := range []struct {
		name, model string
		steps       int
		pkg         string
		arms        []string
		extra       map[string]string
	}{
		{"ai-sdk", "gpt-4o", 5, "ai", []string{"default nothing set", "instructions settings instructions=true"}, nil},
		{"openai-agents", "", 10, "@openai/agents", []string{"default nothing set", "structured-content settings useStructuredContent=true"}, nil},
		{"langchain", "gpt-4o-mini", 12, "@langchain/mcp-adapters", []string{"default nothing set", "standard-content-blocks settings useStandardContentBlocks=true"}, nil},
		{"claude-agent-sdk", "", 0, "@anthropic-ai/claude-agent-sdk", []string{"default nothing set", "approval-default approval default", "approval-plan approval plan", "model-haiku model claude-haiku-5-5", "model-claude-3-7 model claude-3-7-sonnet-20250219"}, nil},
		{"adk", "gemini-flash-latest", 0, "@google/adk", []string{"default nothing set"}, nil},
		{"mastra", "gpt-4o-mini", 5, "@mastra/mcp", []string{"default nothing set", "forward-instructions settings forwardInstructions=true", "model-gpt-4-1 model gpt-4.1", "model-o4-mini model o4-mini", "model-gpt-5-5 model gpt-5.5"}, nil},
		{"mcp-use", "gpt-4o", 5, "mcp-use", []string{"default nothing set"}, map[string]string{"MCP_USE_ANONYMIZED_TELEMETRY": "false"}},
	} {
		c, err := New(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		f, ok := c.(*host.Framework)
		if !ok {
			t.Fatalf("%s: not a framework (%T)", tt.name, c)
		}
		env := f.Env(&client.Run{APIURL: "http://127.0.0.1:9/", APIKey: "k"})
		switch f.API() {
		case "gemini": // Google's Gen AI SDK's
			if env["GOOGLE_GEMINI_BASE_URL"] != "http://127.0.0.1:9/" || env["GEMINI_API_KEY"] != "k" || len(env) != 2 {
				t.Errorf("%s: env %v", tt.name, env)
			}
		case "anthropic-messages": // its Claude Code's, as claudecode sets them
			if env["ANTHROPIC_BASE_URL"] != "http://127.0.0.1:9/" || env["ANTHROPIC_API_KEY"] != "k" || env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] != "1" {
				t.Errorf("%s: env %v", tt.name, env)
			}
		default:
			if env["OPENAI_BASE_URL"] != "http://127.0.0.1:9/v1" || env["OPENAI_API_KEY"] != "k" || len(env) != 2+len(tt.extra) {
				t.Errorf("%s: env %v", tt.name, env)
			}
		}
		for k, v := range tt.extra {
			if env[k] != v {
				t.Errorf("%s: env %s=%q, want %q", tt.name, k, env[k], v)
			}
		}
		if f.Model != tt.model || f.Steps != tt.steps || f.Package() != tt.pkg {
			t.Errorf("%s: model %q steps %d package %q", tt.name, f.Model, f.Steps, f.Package())
		}
		var arms []string
		for _, a := range f.Arms() {
			arms = append(arms, a.Name+" "+a.How())
		}
		if !slices.Equal(arms, tt.arms) {
			t.Errorf("%s: arms %q", tt.name, arms)
		}
	}
}
