package cline

import (
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// GlobalStateFile and SecretsFile are the settings of the Cline Core of
// 1.x and 2.x, under ~/.cline/data (the extension's state, kept as files).
const (
	GlobalStateFile = "globalState.json"
	SecretsFile     = "secrets.json"
)

// Core providers: the core's provider id for an OpenAI-compatible API at a
// base URL, and for Anthropic's.
const (
	coreProvider       = "openai"
	coreDirectProvider = "anthropic"
)

// CoreState renders the core's globalState.json and secrets.json for one
// run (1.x and 2.x), with the keys the quick setup "cline auth -p openai
// -k KEY -m MODEL -b URL" of 2.x writes: the provider openai (any
// OpenAI-compatible API) in both modes with the model and the fake's base
// URL, welcomeViewCompleted (without which a run asks to sign in), the key
// in secrets.json. Telemetry is off. The direct arm names the provider
// anthropic with no base URL (Vendor).
func CoreState(r *client.Run, model string) (global, secrets []byte, err error) {
	state := map[string]any{
		"actModeApiProvider":    coreProvider,
		"planModeApiProvider":   coreProvider,
		"actModeOpenAiModelId":  model,
		"planModeOpenAiModelId": model,
		"openAiBaseUrl":         strings.TrimRight(r.APIURL, "/") + "/v1",
		"welcomeViewCompleted":  true,
		"telemetrySetting":      "disabled",
	}
	keys := map[string]any{"openAiApiKey": r.APIKey}
	if r.Arm.Direct {
		if model == DefaultModel {
			model = DirectModel
		}
		state = map[string]any{
			"actModeApiProvider":   coreDirectProvider,
			"planModeApiProvider":  coreDirectProvider,
			"actModeApiModelId":    model,
			"planModeApiModelId":   model,
			"welcomeViewCompleted": true,
			"telemetrySetting":     "disabled",
		}
		keys = map[string]any{"apiKey": r.APIKey}
	}
	if global, err = encode(state, GlobalStateFile); err != nil {
		return nil, nil, err
	}
	if secrets, err = encode(keys, SecretsFile); err != nil {
		return nil, nil, err
	}
	return global, secrets, nil
}
