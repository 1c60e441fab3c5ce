package client

import "sort"

// Environ is the environment of a client process: BaseEnv, then the
// client's own variables, then the arm's, then the row's (which win), as
// sorted KEY=VALUE.
func (r *Run) Environ(clientVars map[string]string) []string {
	env := r.BaseEnv()
	for k, v := range clientVars {
		env[k] = v
	}
	for k, v := range r.Arm.Env {
		env[k] = v
	}
	for k, v := range r.Env {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
