package fakeapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGeminiMatch(t *testing.T) {
	tests := []struct {
		method, path string
		want         bool
	}{
		{"POST", "/v1beta/models/gemini-2.5-pro:streamGenerateContent", true},
		{"POST", "/v1beta/models/gemini-2.5-flash-lite:generateContent", true},
		{"POST", "/v1/models/m:countTokens", true},
		{"GET", "/v1beta/models/m:generateContent", false},
		{"POST", "/v1beta/models/m:embedContent", false},
		{"POST", "/v1beta/models/a/b:generateContent", false},
	}
	for _, tt := range tests {
		if got := (Gemini{}).Match(tt.method, tt.path); got != tt.want {
			t.Errorf("Match(%s %s) = %v, want %v", tt.method, tt.path, got, tt.want)
		}
	}
}

func TestGeminiContext(t *testing.T) {
	body := `{
	  "systemInstruction": {"role": "user", "parts": [{"text": "You are Gemini CLI."}, {"text": "# MCP"}]},
	  "tools": [{"functionDeclarations": [{"name": "run_shell_command"}, {"name": "lab_ping"}]}],
	  "contents": [
	    {"role": "user", "parts": [{"text": "context"}, {"text": "prompt"}]},
	    {"role": "model", "parts": [{"text": "thinking", "thought": true}, {"functionCall": {"name": "run_shell_command", "args": {"command": "sleep 10"}}}]},
	    {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command", "response": {"output": "done"}}}, {"functionResponse": {"id": "f2", "name": "look", "response": {}, "parts": [{"inlineData": {"mimeType": "image/png", "data": "iVBOR"}}]}}, {"inlineData": {"mimeType": "image/png", "data": "AAAA"}}]},
	    {"role": "model", "parts": [{"thought": true, "text": "only thought"}]}
	  ]}`
	got, err := Gemini{}.Context([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := Context{
		{Kind: KindToolDefinition, Path: "tools[0].functionDeclarations[0]", Name: "run_shell_command", Text: `{"name": "run_shell_command"}`},
		{Kind: KindToolDefinition, Message: 1, Path: "tools[0].functionDeclarations[1]", Name: "lab_ping", Text: `{"name": "lab_ping"}`},
		{Kind: KindSystem, Path: "systemInstruction.parts[0].text", Text: "You are Gemini CLI."},
		{Kind: KindSystem, Path: "systemInstruction.parts[1].text", Text: "# MCP"},
		{Kind: KindUserTurn, Path: "contents[0].parts[0].text", Text: "context"},
		{Kind: KindUserTurn, Path: "contents[0].parts[1].text", Text: "prompt"},
		{Kind: KindAssistantTurn, Message: 1, Path: "contents[1].parts[1].functionCall.args", Name: "run_shell_command", Text: `{"command": "sleep 10"}`},
		{Kind: KindToolResult, Message: 2, Path: "contents[2].parts[0].functionResponse.response", Name: "run_shell_command", Text: `{"output": "done"}`, Call: "run_shell_command"},
		{Kind: KindToolResult, Message: 2, Path: "contents[2].parts[1].functionResponse.response", Name: "look", Text: `{}`, Call: "look"},
		{Kind: KindToolResult, Message: 2, Path: "contents[2].parts[1].functionResponse.parts[0].inlineData", Call: "look", Media: "image/png", Data: "iVBOR"},
		{Kind: KindUserTurn, Message: 2, Path: "contents[2].parts[2].inlineData", Media: "image/png", Data: "AAAA"},
		{Kind: KindAssistantTurn, Message: 3, Path: "contents[3]"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Context mismatch (-want +got):\n%s", diff)
	}
	// countTokens wraps the same request.
	wrapped, err := Gemini{}.Context([]byte(`{"generateContentRequest":{"model":"m","contents":[{"role":"user","parts":[{"text":"x"}]}]}}`))
	if err != nil || len(wrapped) != 1 || wrapped[0].Text != "x" {
		t.Errorf("countTokens context %v, %v", wrapped, err)
	}
}

func TestServerGemini(t *testing.T) {
	s := start(t, Options{Prompt: testPrompt, Script: []Turn{{Tool: "run_shell_command", Input: json.RawMessage(`{"command":"sleep 10"}`)}}})
	base := s.URL + "/v1beta/models/gemini-2.5-pro"
	main := `{"systemInstruction":{"parts":[{"text":"BEGIN codeword: HERON-4821. [at 250] END codeword: OSPREY-3094."}]},
	  "tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}],
	  "contents":[{"role":"user","parts":[{"text":"` + testPrompt + `"}]}]}`

	_, out := post(t, base+":streamGenerateContent?alt=sse", "k", main)
	_, data, _ := sseData(t, out)
	if len(data) != 1 {
		t.Fatalf("%d chunks, want 1: %q", len(data), out)
	}
	part := data[0]["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)
	if fc, ok := part["functionCall"].(map[string]any); !ok || fc["name"] != "run_shell_command" {
		t.Errorf("first reply part %v, want the scripted call", part)
	}

	after := strings.Replace(main, `]}]}`, `]},{"role":"model","parts":[{"functionCall":{"name":"run_shell_command","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{}}}]}]}`, 1)
	_, out = post(t, base+":streamGenerateContent?alt=sse", "k", after)
	_, data, _ = sseData(t, out)
	part = data[0]["candidates"].([]any)[0].(map[string]any)["content"].(map[string]any)["parts"].([]any)[0].(map[string]any)
	if want := "BEGIN=HERON-4821 END=OSPREY-3094 LAST=250"; part["text"] != want {
		t.Errorf("reply %v, want %q", part["text"], want)
	}
	if data[0]["modelVersion"] != "gemini-2.5-pro" {
		t.Errorf("modelVersion %v", data[0]["modelVersion"])
	}

	classifier := `{"contents":[{"role":"user","parts":[{"text":"route this"}]}],"generationConfig":{"responseMimeType":"application/json",
	  "responseJsonSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"model_choice":{"type":"string","enum":["flash","pro"]}},"required":["reasoning","model_choice"]}}}`
	_, out = post(t, base+":generateContent", "k", classifier)
	var resp struct {
		Candidates []struct {
			Content struct {
				Parts []struct{ Text string } `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
		Usage struct {
			Prompt int `json:"promptTokenCount"`
		} `json:"usageMetadata"`
	}
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatalf("generateContent reply %q: %v", out, err)
	}
	var choice struct {
		Reasoning   string `json:"reasoning"`
		ModelChoice string `json:"model_choice"`
	}
	if err := json.Unmarshal([]byte(resp.Candidates[0].Content.Parts[0].Text), &choice); err != nil {
		t.Fatalf("classifier text is not JSON: %v", err)
	}
	if choice.ModelChoice != "flash" || choice.Reasoning == "" || resp.Usage.Prompt <= 0 {
		t.Errorf("classifier reply %+v, usage %+v", choice, resp.Usage)
	}

	_, out = post(t, base+":countTokens", "k", `{"contents":[{"role":"user","parts":[{"text":"hello world"}]}]}`)
	if !strings.Contains(out, `"totalTokens":2`) {
		t.Errorf("countTokens reply %q", out)
	}
	var apis []string
	for _, r := range s.Recorder.Requests() {
		apis = append(apis, r.API)
	}
	if diff := cmp.Diff([]string{"gemini", "gemini", "gemini", "gemini"}, apis); diff != "" {
		t.Errorf("recorded APIs mismatch (-want +got):\n%s", diff)
	}
}

func TestFitSchema(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"gemini upper-case types and ordering", `{"type":"OBJECT","propertyOrdering":["z","a"],"properties":{"a":{"type":"INTEGER","minimum":3},"z":{"type":"BOOLEAN"},"m":{"type":"ARRAY","minItems":2,"items":{"type":"STRING","enum":["x"]}}}}`,
			`{"a":3,"m":["x","x"],"z":false}`},
		{"anyOf and nullable type", `{"anyOf":[{"type":["string","null"]},{"type":"number"}]}`, `"TEXT"`},
		{"const", `{"const":{"k":1}}`, `{"k":1}`},
		{"integer without minimum is 1", `{"type":"object","properties":{"complexity_score":{"type":"INTEGER"}}}`, `{"complexity_score":1}`},
		{"not a schema", `[1]`, `"TEXT"`},
		{"deep nesting stops", strings.Repeat(`{"type":"object","properties":{"a":`, 20) + `{"type":"string"}` + strings.Repeat(`}}`, 20), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(fitSchema(json.RawMessage(tt.schema), "TEXT"))
			if tt.want == "" {
				if !json.Valid([]byte(got)) {
					t.Errorf("invalid JSON %s", got)
				}
				return
			}
			if got != tt.want {
				t.Errorf("fitSchema = %s, want %s", got, tt.want)
			}
		})
	}
}

func FuzzGeminiContext(f *testing.F) {
	f.Add([]byte(`{"systemInstruction":{"parts":[{"text":"s"}]},"contents":[{"role":"model","parts":[{"functionCall":{"name":"x","args":{}}}]}]}`))
	f.Add([]byte(`{"systemInstruction":"plain","generateContentRequest":{"contents":[]}}`))
	f.Add([]byte(`{"tools":[{"functionDeclarations":[1,{"name":"a"}]}],"contents":[{"parts":[{"functionResponse":{"response":null}}]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ctx, err := Gemini{}.Context(body)
		if err != nil {
			return
		}
		_ = Read(ctx, "")
		var v any
		if json.Unmarshal(body, &v) != nil {
			t.Fatalf("Context accepted invalid JSON %q", body)
		}
	})
}

func FuzzFitSchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"a":{"type":"string","enum":["x"]}}}`), "line")
	f.Add([]byte(`{"type":"array","minItems":1e9,"items":{"type":"array","minItems":3}}`), "")
	f.Fuzz(func(t *testing.T, schema []byte, text string) {
		out := fitSchema(schema, text)
		if !json.Valid(out) {
			t.Fatalf("fitSchema(%q) = %q, not JSON", schema, out)
		}
	})
}
