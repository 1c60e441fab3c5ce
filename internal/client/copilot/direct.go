package copilot

import "github.com/instrlab/instrlab/internal/client"

// GitHub's hosts as Copilot CLI 1.0.102 reaches them with a GitHub token:
// UserHost answers the account's Copilot user info (the runtime's
// https://api.github.com/copilot_internal/user), whose endpoints.api
// names the Copilot API, APIHost for an individual account, where the
// models list and the model requests go.
const (
	UserHost = "api.github.com"
	APIHost  = "api.individual.githubcopilot.com"
)

// TokenPrefix begins the dummy COPILOT_GITHUB_TOKEN of the direct arm: the
// runtime ignores a token of no known type ("Unsupported token type,
// ignoring.", then "No authentication information found"), refuses a
// classic ghp_ one, and takes gho_, an OAuth token (measured in 1.0.102).
const TokenPrefix = "gho_"

// Vendor implements client.Direct. With no COPILOT_PROVIDER_* (BYOK) and
// not offline, Copilot CLI 1.0.102 signs in with COPILOT_GITHUB_TOKEN,
// asks UserHost for the account's Copilot user info, then APIHost for
// its models and posts the model requests there; its native runtime
// (prebuilds/linux-x64/runtime.node, Rust) and its JavaScript both add the
// certificates of NODE_EXTRA_CA_CERTS (the runtime logs the variable as
// "an ad-hoc TLS trust root"). The fake answers the two requests it
// cannot go on without (Answers); every other one (managed_settings,
// team_customizations, GitHub's own MCP server at /mcp/readonly) gets 404.
func (c *Copilot) Vendor() client.Vendor {
	return client.Vendor{
		Hosts:    []string{UserHost, APIHost},
		TrustEnv: []string{"NODE_EXTRA_CA_CERTS"},
		Says:     "no COPILOT_PROVIDER_* and not offline: GitHub's Copilot API, signed in with a dummy COPILOT_GITHUB_TOKEN, the same COPILOT_MODEL",
		Answers: []client.Answer{
			// The fields are the runtime's struct CopilotUserResponse
			// (their names in runtime.node beside "Error fetching
			// copilot user"). login is required ("The Copilot user
			// response did not include a login"); endpoints.api is where
			// the models and model requests go; without both
			// copilot_plan and is_mcp_enabled the runtime blocks every
			// server of ~/.copilot/mcp-config.json ("2 MCP servers were
			// blocked by policy: 'browser-use', 'lab'", and without
			// copilot_plan also "Third-party MCP servers are disabled
			// by your organization's Copilot policy"), so the values are
			// an individual account's, whose servers run.
			{Host: UserHost, Method: "GET", Path: "/copilot_internal/user", What: "Copilot user info",
				Body: `{"login":"instrlab","copilot_plan":"individual","is_mcp_enabled":true,"endpoints":{"api":"https://` + APIHost + `"}}`},
			// Without an answer the run ends "Error: Failed to load
			// models"; a list of the one model the run names
			// (COPILOT_MODEL) by its id is accepted, and the runtime
			// posts to /chat/completions, as in the gateway arm.
			{Host: APIHost, Method: "GET", Path: "/models", What: "Copilot models",
				Body: `{"data":[{"id":"` + DefaultModel + `"}]}`},
		},
	}
}
