package opencode

import "github.com/instrlab/instrlab/internal/version"

// Versions is a range of versions and what a run of one of them gets on
// top of every version's config and environment.
type Versions struct {
	// Range is an npm-style range (version.Range).
	Range string
	// Env is added to the client's environment.
	Env map[string]string
	// Settings are top-level keys added to opencode.json.
	Settings map[string]any
}

// Has reports whether v is in the range; a version that is not a
// semantic version is not.
func (o *Versions) Has(v string) bool {
	r, err := version.ParseRange(o.Range)
	if err != nil {
		panic("opencode: range " + o.Range + ": " + err.Error())
	}
	return r.Match(v)
}

// Old are the versions before 1.1.27, which cannot run offline as the later
// ones do (measured on 1.0.152, 1.0.185, 1.1.11 and 1.1.16, the four the
// atlas sweep ran; docs/clients.md, "opencode before 1.1.27"):
//
//   - Their built-in "opencode" provider's loader reads that provider's
//     entry in the models.dev database without a check (provider.ts:89,
//     input.env) and Models has none: "TypeError: undefined is not an
//     object (evaluating 'input.env')" before the first request, exit 1
//     (0 for 1.1.11, with no request). disabled_providers, a config key of
//     every version, skips that loader; instrlab's provider is the one a
//     run uses either way.
//   - 1.0.152 and 1.0.185 exit 1 (BunInstallFailedError) when their default
//     plugins, opencode-copilot-auth and opencode-anthropic-auth, cannot be
//     installed from npm at start, which no offline run can do.
//     OPENCODE_DISABLE_DEFAULT_PLUGINS (a flag of every version) skips the
//     installs; every version's install fails offline, so no run of any
//     version loads those plugins.
//
// 1.1.27 and later run without either (the swept atlas).
var Old = Versions{
	Range:    "<1.1.27",
	Env:      map[string]string{"OPENCODE_DISABLE_DEFAULT_PLUGINS": "1"},
	Settings: map[string]any{"disabled_providers": []string{"opencode"}},
}
