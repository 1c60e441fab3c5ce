package derive

import (
	"cmp"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/surface"
	"github.com/instrlab/instrlab/lab"
)

// approvalRuns splits the runs of the surface-approval row from the
// others: they measure what a client's approval mode lets run, not the
// meta group's texts, which the surface-meta row measures.
func approvalRuns(all []run) (others, approval []run) {
	return apartBy(all, func(r run) bool { return r.Row.Name == matrix.ApprovalRow })
}

// deriveApprovals is what the runs of the surface-approval row show, one
// Approval per arm they ran in, the default arm first: per tool of the
// meta group, by the class of its annotations, what became of its calls.
// A run whose surface was not analysed measures nothing.
func deriveApprovals(runs []run, ev Evidence, model0 string) []profiles.Approval {
	hints := metaHints()
	var out []profiles.Approval
	byArm := map[string][]run{}
	var arms []string
	for _, r := range runs {
		if r.Surface == nil {
			continue
		}
		a := nonDefaultArm(r)
		if _, ok := byArm[a]; !ok && a == "" {
			arms = slices.Insert(arms, 0, a) // the default arm first
		} else if !ok {
			arms = append(arms, a)
		}
		byArm[a] = append(byArm[a], r)
	}
	for _, arm := range arms {
		rs := byArm[arm]
		ap := profiles.Approval{Arm: arm, Mode: rs[0].Arm.Approval, Runs: len(rs)}
		for _, r := range rs {
			if r.Status == analyze.StatusOK {
				continue
			}
			ap.Failed++
			if ap.Ended == "" {
				ap.Ended = r.Reason
				if e := r.Observation.ResultError; e != "" {
					ap.Ended = e
					if u, err := strconv.Unquote(e); err == nil {
						ap.Ended = u // a JSON string as the client printed it (opencode's and Kilo's error)
					}
				}
			}
		}
		if m, err := modelOf(rs, ev); err == nil && m != model0 {
			ap.Model = m
		}
		var tools []string
		fates := map[string][]string{}
		told := map[string]string{}
		for _, r := range rs {
			for _, c := range r.Surface.Calls {
				if !slices.Contains(tools, c.Tool) {
					tools = append(tools, c.Tool)
				}
				fates[c.Tool] = append(fates[c.Tool], approvalFates[c.Fate()])
				if c.Fate() == surface.FateRefused && told[c.Tool] == "" {
					told[c.Tool] = decimals().ReplaceAllString(c.Instead, "N")
					// The client's name of the tool: the one it offered, or
					// the deferred tool's behind its invoker (Qwen Code's
					// tool_call).
					if name := cmp.Or(c.Deferred, c.Name); name != "" {
						told[c.Tool] = strings.ReplaceAll(told[c.Tool], name, profiles.ToolPlaceholder)
					}
				}
			}
			for _, m := range r.Surface.NotCalled {
				if !slices.Contains(tools, m.Tool) {
					tools = append(tools, m.Tool)
				}
				fates[m.Tool] = append(fates[m.Tool], approvalFates[m.Why])
			}
		}
		for _, t := range tools {
			ta := profiles.ToolApproval{Tool: t, Hints: hints[t], Fate: fates[t][0], Told: told[t]}
			if len(fates[t]) < len(rs) || slices.ContainsFunc(fates[t], func(f string) bool { return f != ta.Fate }) {
				ta.Fate, ta.Told = profiles.FateVaries, ""
				for _, f := range fates[t] {
					if f == profiles.ApprovalRan {
						ta.Ran++
					}
				}
			}
			ap.Tools = append(ap.Tools, ta)
		}
		out = append(out, ap)
	}
	return out
}

// decimals are the numbers with a fraction in a client's words, which
// vary from call to call (Codex CLI's "Wall time: 0.0129 seconds").
var decimals = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[0-9]+\.[0-9]+`) })

// approvalFates are the profile's words for the surface's fates of a
// call and whys of a call not made.
var approvalFates = map[string]string{
	surface.FateRan:          profiles.ApprovalRan,
	surface.FateRefused:      profiles.ApprovalRefused,
	surface.FateNoResult:     profiles.ApprovalNoResult,
	surface.MissedNotOffered: profiles.ApprovalNotOffered,
	surface.MissedNoCall:     profiles.ApprovalNotCalled,
	surface.MissedNotListed:  profiles.ApprovalNotListed,
}

// metaHints is the class of each meta group tool's annotations
// (surface.Hints), from the lab's catalogue as its tools/list sends them.
func metaHints() map[string]string {
	tools, err := lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceMeta}}.Tools()
	if err != nil {
		panic("the lab's meta group: " + err.Error())
	}
	out := map[string]string{}
	for _, st := range tools {
		var a map[string]any
		if st.Tool.Annotations != nil {
			b, err := json.Marshal(st.Tool.Annotations)
			if err != nil {
				panic("the lab's meta group: " + err.Error())
			}
			if err := json.Unmarshal(b, &a); err != nil {
				panic("the lab's meta group: " + err.Error())
			}
		}
		out[st.Tool.Name] = profiles.Hints(a)
	}
	return out
}
