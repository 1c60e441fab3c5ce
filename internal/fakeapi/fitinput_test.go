package fakeapi

import "testing"

// TestFitInput: a call's input keeps only what the offered definition's
// input schema declares, in each API's shape (Codex CLI's
// read_mcp_resource takes server and uri, Gemini CLI's uri alone); a
// definition that declares nothing, or is not JSON, leaves it whole.
func TestFitInput(t *testing.T) {
	in := []byte(`{"server":"lab","uri":"lab://surface/readme"}`)
	for _, tt := range []struct{ name, def, want string }{
		{"responses", `{"type":"function","name":"read_mcp_resource","parameters":{"type":"object","properties":{"server":{"type":"string"},"uri":{"type":"string"}},"additionalProperties":false}}`, `{"server":"lab","uri":"lab://surface/readme"}`},
		{"gemini", `{"name":"read_mcp_resource","parametersJsonSchema":{"type":"object","properties":{"uri":{"type":"string"},"wait_for_previous":{"type":"boolean"}}}}`, `{"uri":"lab://surface/readme"}`},
		{"chat", `{"type":"function","function":{"name":"read_mcp_resource","parameters":{"type":"object","properties":{"uri":{}}}}}`, `{"uri":"lab://surface/readme"}`},
		{"anthropic", `{"name":"ReadMcpResourceTool","input_schema":{"type":"object","properties":{"server":{},"uri":{}}}}`, `{"server":"lab","uri":"lab://surface/readme"}`},
		{"no properties", `{"name":"x","input_schema":{"type":"object"}}`, string(in)},
		{"not JSON", `read_mcp_resource`, string(in)},
	} {
		if got := string(fitInput(tt.def, in)); got != tt.want {
			t.Errorf("%s: fitInput = %s, want %s", tt.name, got, tt.want)
		}
	}
}
