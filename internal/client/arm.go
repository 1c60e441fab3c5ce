package client

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// An Arm is one setting of the switches inside a client that change what
// happens to a server's text (placement, wrapper, cap, probe and era,
// waiting, tool deferral): an environment variable, a settings key, or a
// flag value the client caches in its own config file. Offline, a client
// runs its built-in defaults, its default arm; users online may be in
// another. A client declares its arms in its own folder (Armed).
type Arm struct {
	// Name is the arm's name in -arms and in the tables: lower case
	// letters, digits and '-'.
	Name string `json:"name"`
	// Default marks the arm a run is in when nothing is set.
	Default bool `json:"default,omitempty"`
	// Env holds environment variables set on the client (the row's own
	// win over them).
	Env map[string]string `json:"env,omitempty"`
	// Settings holds keys of the client's settings file; Cached holds
	// flag values the client caches in its config file. The client's
	// Command writes them; a client declares only arms it can write.
	Settings map[string]any `json:"settings,omitempty"`
	Cached   map[string]any `json:"cached,omitempty"`
	// Model is the model the arm runs, pinned by the name the client
	// takes (its --model or config value), in place of a row's or a
	// matrix's model: the arm is how that model is measured. Empty: the
	// row's model, else the client's default.
	Model string `json:"model,omitempty"`
	// Approval is the arm's approval mode (Approval*): empty, the lab's
	// convention, pre-approves every tool of the run's servers.
	Approval string `json:"approval,omitempty"`
	// Lab marks an arm whose settings name the lab server's own tools
	// (excludeTools: lab_ping, …): in a run of another server it sets
	// nothing of that server, so it is not that arm there.
	Lab bool `json:"lab,omitempty"`
	// Says is what the client's code says the arm does, read from its
	// shipped code; not a measurement.
	Says string `json:"says,omitempty"`
	// Direct marks the direct arm (DirectArmName): the client talks to
	// Hosts, its vendor's own, with no base URL.
	// Answers are the fake's replies to its non-model requests there
	// (Vendor.Answers).
	Direct  bool     `json:"direct,omitempty"`
	Hosts   []string `json:"hosts,omitempty"`
	Answers []Answer `json:"answers,omitempty"`
}

// The approval modes of an arm (Arm.Approval) besides the lab's own
// pre-approval of every tool. Each client maps them onto its own flags.
const (
	// ApprovalDefault is the client's default mode in a headless run:
	// no tool approved beforehand, none of its approve-all flags (and
	// its auto-approval switched off where it is on by default, as in
	// Cline CLI 3.x).
	ApprovalDefault = "default"
	// ApprovalPlan is the client's documented read-only or plan mode.
	ApprovalPlan = "plan"
)

// An Armed client knows the arms it can be in, at its version.
type Armed interface {
	Arms() []Arm
}

// DefaultArmName names the one arm of a client that declares none.
const DefaultArmName = "default"

// ArmsOf lists the arms of c: the ones it declares, or its default alone,
// then its direct arm when it can run in one (DirectArm).
func ArmsOf(c Client) []Arm {
	arms := []Arm{{Name: DefaultArmName, Default: true}}
	if a, ok := c.(Armed); ok {
		if declared := a.Arms(); len(declared) > 0 {
			arms = slices.Clone(declared)
		}
	}
	if d, ok := DirectArm(c); ok {
		arms = append(arms, d)
	}
	return arms
}

// DefaultArm is the arm c runs in when nothing is set.
func DefaultArm(c Client) Arm {
	arms := ArmsOf(c)
	for _, a := range arms {
		if a.Default {
			return a
		}
	}
	return arms[0]
}

// How says how the arm is set, as "env MCP_SDK_GENERATION=v1; cached
// tengu_x=true", or "nothing set" for the default arm.
func (a Arm) How() string {
	if a.Direct {
		return a.directHow()
	}
	var parts []string
	if a.Model != "" {
		parts = append(parts, "model "+a.Model)
	}
	if a.Approval != "" {
		parts = append(parts, "approval "+a.Approval)
	}
	for _, k := range slices.Sorted(maps.Keys(a.Env)) {
		parts = append(parts, "env "+k+"="+a.Env[k])
	}
	for _, set := range []struct {
		what string
		m    map[string]any
	}{{"settings", a.Settings}, {"cached", a.Cached}} {
		for _, k := range slices.Sorted(maps.Keys(set.m)) {
			v, _ := json.Marshal(set.m[k])
			parts = append(parts, set.what+" "+k+"="+string(v))
		}
	}
	if len(parts) == 0 {
		return "nothing set"
	}
	return strings.Join(parts, "; ")
}

// PickArms selects arms of c by sel: "" or "default" for the default arm,
// "all" for every arm, else arm names. A name c does not know is an error
// listing the ones it does.
func PickArms(c Client, sel []string) ([]Arm, error) {
	arms := ArmsOf(c)
	if len(sel) == 0 || slices.Equal(sel, []string{DefaultArmName}) {
		return []Arm{DefaultArm(c)}, nil
	}
	if slices.Contains(sel, "all") {
		return arms, nil
	}
	var out []Arm
	for _, name := range sel {
		i := slices.IndexFunc(arms, func(a Arm) bool { return a.Name == name || name == DefaultArmName && a.Default })
		if i < 0 {
			var known []string
			for _, a := range arms {
				known = append(known, a.Name)
			}
			return nil, fmt.Errorf("%s has no arm %q (its arms: %s)", c.Spec(), name, strings.Join(known, ", "))
		}
		if !slices.ContainsFunc(out, func(a Arm) bool { return a.Name == arms[i].Name }) {
			out = append(out, arms[i])
		}
	}
	return out, nil
}

// SettingPaths splits a key of Arm.Settings at its dots into the path of
// the setting in the client's config, one path per server of the run when
// a segment is "*" (as in "mcp_servers.*.startup_readiness": the key of
// every server, in the run's order).
func SettingPaths(key string, servers []Server) [][]string {
	segs := strings.Split(key, ".")
	i := slices.Index(segs, "*")
	if i < 0 {
		return [][]string{segs}
	}
	var out [][]string
	for _, s := range servers {
		p := slices.Clone(segs)
		p[i] = s.Name
		out = append(out, p)
	}
	return out
}

// ServerSettings returns the arm's settings of every server under the
// config key parent ("mcp" for "mcp.*.timeout"), by their key inside a
// server's entry, for a client that writes its servers' entries itself.
func (a Arm) ServerSettings(parent string) map[string]any {
	out := map[string]any{}
	for k, v := range a.Settings {
		if rest, ok := strings.CutPrefix(k, parent+".*."); ok {
			out[rest] = v
		}
	}
	return out
}

// SetIn sets the arm's settings in cfg, a client's settings file as JSON
// objects, but those with a "*" segment (ServerSettings, which the client
// writes into each server's entry): a key's dots run through objects,
// created where missing. A key through a value that is not an object is an
// error.
func (a Arm) SetIn(cfg map[string]any) error {
	for _, k := range slices.Sorted(maps.Keys(a.Settings)) {
		path := strings.Split(k, ".")
		if slices.Contains(path, "*") {
			continue
		}
		m := cfg
		for _, seg := range path[:len(path)-1] {
			next, ok := m[seg].(map[string]any)
			if !ok {
				if _, set := m[seg]; set {
					return fmt.Errorf("arm %s: setting %s: %s is not an object", a.Name, k, seg)
				}
				next = map[string]any{}
				m[seg] = next
			}
			m = next
		}
		m[path[len(path)-1]] = a.Settings[k]
	}
	return nil
}
