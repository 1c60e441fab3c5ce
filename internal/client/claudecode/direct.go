package claudecode

import "github.com/instrlab/instrlab/internal/client"

// Vendor implements client.Direct. With no ANTHROPIC_BASE_URL, Claude Code
// posts to api.anthropic.com: its executable's default host ("api.anthropic.com"
// as the base API URL, and the first-party set api.anthropic.com,
// api-staging.anthropic.com against which it tells a gateway from the
// vendor), read in 2.1.332. It is a Bun build, which adds the certificates
// of NODE_EXTRA_CA_CERTS to its own store, as the executable's CA code says.
func (c *Claude) Vendor() client.Vendor {
	return client.Vendor{
		Hosts:    []string{"api.anthropic.com"},
		TrustEnv: []string{"NODE_EXTRA_CA_CERTS"},
		Says:     "no ANTHROPIC_BASE_URL: the first-party provider at api.anthropic.com, with the same dummy ANTHROPIC_API_KEY",
	}
}
