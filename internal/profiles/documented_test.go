package profiles

import "testing"

// TestDocumentedBreaks: a name past a documented limit says how (length,
// characters outside the allowed ones, a first character not allowed
// there); one within it says nothing.
func TestDocumentedBreaks(t *testing.T) {
	openai := DocumentedFor("openai-chat", DocumentedToolName)
	gemini := DocumentedFor("gemini", DocumentedToolName)
	if len(openai) != 1 || len(gemini) != 1 || len(DocumentedFor("anthropic-messages", DocumentedToolName)) != 0 {
		t.Fatalf("limits: openai-chat %v, gemini %v", openai, gemini)
	}
	long := ""
	for range 65 {
		long += "a"
	}
	for _, tc := range []struct {
		d          Documented
		name, want string
	}{
		{openai[0], "lab__get_weather-2", ""},
		{openai[0], long, "65 characters"},
		{openai[0], "lab__get.weather", `has "."`},
		{openai[0], "lab__wetter_é.x.é", `has "é", "."`},
		{openai[0], long + ".", `66 characters; has "."`},
		{gemini[0], "mcp_lab_get.weather:v2", ""},
		{gemini[0], "1tool", `starts with "1"`},
		{gemini[0], "-tool/x", `starts with "-"; has "/"`},
		{gemini[0], long, ""},
		{gemini[0], long + long, "130 characters"},
	} {
		if got := tc.d.Breaks(tc.name); got != tc.want {
			t.Errorf("%s: %q breaks it by %q, want %q", tc.d.Provider, tc.name, got, tc.want)
		}
	}
	if got, want := gemini[0].Says(), "tool names of at most 128 characters, only a-z, A-Z, 0-9, _, ., : and -, starting with a letter or _"; got != want {
		t.Errorf("Says: %q, want %q", got, want)
	}
}
