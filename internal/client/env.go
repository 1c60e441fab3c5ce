package client

import "sort"

// Environ is the environment of a client process: BaseEnv, then the
// client's own variables, then the arm's, then the trust of the run's CA
// (the direct arm), then the row's (which win), as sorted KEY=VALUE.
func (r *Run) Environ(clientVars map[string]string) []string {
	env := r.BaseEnv()
	for _, m := range []map[string]string{clientVars, r.Arm.Env, r.Trust, r.Env} {
		for k, v := range m {
			env[k] = v
		}
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
