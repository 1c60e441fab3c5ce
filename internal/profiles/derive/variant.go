package derive

import (
	"maps"
	"slices"
	"strings"
)

// A group is the runs made one way other than the profile's: with the
// same flags and model.
type group struct {
	flags []string
	model string
	// arm is the client's arm when not its default, how says how it is set.
	arm, how string
	// byModel says the arm sets nothing but its model (client.Arm.Model).
	byModel bool
	runs    []run
}

// when is how a user runs the client this way: its flags, then "model
// NAME" when the runs chose a model.
func (g group) when() string {
	w := strings.Join(g.flags, " ")
	if g.byModel {
		return strings.TrimSpace(w + " model " + g.model)
	}
	if g.arm != "" {
		w = strings.TrimSpace("in arm " + g.arm + " (" + g.how + ") " + w)
	}
	if g.model != "" {
		if w != "" {
			w += " "
		}
		w += "model " + g.model
	}
	return w
}

// split parts the runs into the profile's (no flags, the model most runs
// used) and the variants': runs with other flags or another model, when
// at least one of them sets nothing else (no environment, no delay).
// The runs of a way with no such run stay with the profile's, as runs
// that are not plain.
func split(all []run) ([]run, []group) {
	key := func(r run) string {
		return strings.Join(r.Row.Flags, "\x00") + "\x01" + r.Row.Model + "\x01" + nonDefaultArm(r)
	}
	count := map[string]int{}
	for _, r := range all {
		if len(r.Row.Flags) == 0 && nonDefaultArm(r) == "" {
			count[r.Row.Model]++
		}
	}
	baseModel, n := "", -1
	for _, m := range slices.Sorted(maps.Keys(count)) {
		if count[m] > n {
			baseModel, n = m, count[m]
		}
	}
	byKey := map[string]*group{}
	var keys []string
	var base []run
	for _, r := range all {
		if len(r.Row.Flags) == 0 && r.Row.Model == baseModel && nonDefaultArm(r) == "" {
			r.isPlain = r.Row.Plain()
			base = append(base, r)
			continue
		}
		k := key(r)
		g := byKey[k]
		if g == nil {
			g = &group{flags: r.Row.Flags, arm: nonDefaultArm(r), how: r.Arm.How,
				byModel: r.Arm.Model != "" && r.Arm.How == "model "+r.Arm.Model}
			if r.Row.Model != baseModel {
				g.model = r.Row.Model
			}
			if g.byModel && g.model == "" {
				g.model = r.Arm.Model
			}
			byKey[k] = g
			keys = append(keys, k)
		}
		r.isPlain = len(r.Row.Env) == 0 && r.Row.InitDelay == 0 && r.Row.DiscoverDelay == 0 && r.Row.Fail == "" && len(r.Row.ToolMeta) == 0
		g.runs = append(g.runs, r)
	}
	var groups []group
	for _, k := range keys {
		g := byKey[k]
		if slices.ContainsFunc(g.runs, func(r run) bool { return r.isPlain }) {
			for i := range g.runs {
				g.runs[i].Plain = g.runs[i].isPlain
			}
			groups = append(groups, *g)
			continue
		}
		if g.arm != "" {
			// An arm's runs never join the default arm's.
			groups = append(groups, *g)
			continue
		}
		for _, r := range g.runs {
			r.isPlain = false
			base = append(base, r)
		}
	}
	return base, groups
}

// nonDefaultArm is the arm the run was in, "" for the client's default.
func nonDefaultArm(r run) string {
	if r.Arm.Default || r.Arm.Name == "" {
		return ""
	}
	return r.Arm.Name
}
