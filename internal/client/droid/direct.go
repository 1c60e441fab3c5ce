package droid

import "github.com/instrlab/instrlab/internal/client"

// APIHost is Factory's API, where Droid 0.225.2 sends its account's
// requests and, for Factory's own models, the model requests
// (/api/llm/a/v1/messages, /api/llm/o/v1/responses): its production
// config's apiBaseUrl "https://api.factory.ai".
const APIHost = "api.factory.ai"

// DirectKeyPrefix begins the dummy FACTORY_API_KEY of the direct arm, as
// Factory's keys begin.
const DirectKeyPrefix = "fk-"

// Vendor implements client.Direct. With no custom model and
// FACTORY_API_KEY set, droid exec 0.225.2 runs Factory's default model
// through APIHost; it is a Bun executable, which adds the certificates of
// NODE_EXTRA_CA_CERTS. It needs no answer besides the model's: its account
// requests (/api/cli/whoami, /api/organization/managed-settings,
// /api/feature-flags, /api/sessions/create, /api/billing/limits, the
// connectors) get the fake's 404 and it goes on (measured).
func (d *Droid) Vendor() client.Vendor {
	return client.Vendor{
		Hosts:    []string{APIHost},
		TrustEnv: []string{"NODE_EXTRA_CA_CERTS"},
		Says:     "no custom model: Factory's default model through api.factory.ai, a dummy FACTORY_API_KEY",
	}
}
