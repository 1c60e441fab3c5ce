package surface

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// A ProtocolLine is one fact of ProtocolFacts in words: the feature
// (labvocab.Feature*), what the client does with it, in words that hold
// from run to run (labvocab.Does*, which a profile keeps), and Detail,
// what this run adds (the requests, an accepted elicitation's content).
type ProtocolLine struct {
	Feature string `json:"feature"`
	Does    string `json:"does"`
	Detail  string `json:"detail,omitempty"`
}

// ProtocolLines says in words what the client did in one run with each
// feature the lab's protocol group exercised: its protocol facts
// (Protocol), the calls of the run (an elicitation tool called without an elicitation sent: the client
// declared none in that mode) and the tools' definitions (the app-only
// tool, x-mcp-header). A run whose p is nil called none of the group's
// tools: one line says why (missed, the calls not made).
func ProtocolLines(p *ProtocolFacts, calls []CallFacts, tools []ToolDef, missed []Missed) []ProtocolLine {
	if p == nil {
		why := "no call made"
		if len(missed) > 0 {
			why = "no call made: " + missed[0].Why
		}
		return []ProtocolLine{{Feature: labvocab.FeatureCalls, Does: why}}
	}
	out := []ProtocolLine{{Feature: labvocab.FeatureDeclared, Does: strings.Join(p.Declared, ", ")}}
	switch {
	case p.Declared == nil:
		out[0].Does = "not measured (no initialize in the log)"
	case len(p.Declared) == 0:
		out[0].Does = "no capability"
	}
	for _, mode := range []string{"form", "url"} {
		tool := "protocol_elicit_" + mode
		called := slices.ContainsFunc(calls, func(c CallFacts) bool { return c.Tool == tool && c.Reached })
		asked := slices.ContainsFunc(p.Asks, func(a AskFact) bool { return a.Mode == mode })
		if called && !asked {
			out = append(out, ProtocolLine{Feature: "elicitation " + mode, Does: labvocab.DoesNotDeclared})
		}
	}
	for _, a := range p.Asks {
		l := ProtocolLine{Feature: askFeature(a), Does: a.Answer}
		switch {
		case a.Answer == AskNoAnswer && a.Via == ViaInputRequired:
			l.Does, l.Detail = labvocab.DoesNoAnswer, "no retry of the call carried it"
		case a.Answer == AskNoAnswer:
			l.Does, l.Detail = labvocab.DoesNoAnswer, fmt.Sprintf("the lab waits %v", lab.AskTimeout)
		case a.Roots != nil:
			l.Does = fmt.Sprintf("%s: %d roots", a.Answer, *a.Roots)
		case a.Content != "":
			l.Detail = a.Content
		}
		if a.Via == ViaInputRequired {
			l.Does = labvocab.DoesInputRequired + l.Does
		}
		if a.Model != 0 {
			l.Does += "; its text " + labvocab.DoesReaches
			l.Detail = strings.TrimPrefix(l.Detail+fmt.Sprintf("; request %d", a.Model), "; ")
		}
		out = append(out, l)
	}
	for _, m := range labvocab.NoticeMethods {
		l := ProtocolLine{Feature: labvocab.FeatureProgress}
		if m == "notifications/message" {
			l.Feature = labvocab.FeatureLog
		}
		k := slices.IndexFunc(p.Notices, func(n Notice) bool { return n.Method == m })
		switch {
		case k < 0 && m == "notifications/progress":
			l.Does = "not sent: the call had no progress token"
		case k < 0:
			l.Does = "not sent"
		case p.Notices[k].Model != 0:
			l.Does, l.Detail = labvocab.DoesReaches, fmt.Sprintf("request %d", p.Notices[k].Model)
		default:
			l.Does = labvocab.DoesNeverReaches
		}
		switch {
		case l.Feature != labvocab.FeatureLog:
		case p.Modern && k < 0:
			// Over 2026-07-28 a request's _meta asks for a level, and
			// the server logs nothing without one.
			l.Does = "not sent: the client asked for no log level (2026-07-28: in a request's _meta)"
		case p.Modern:
		case p.LogLevel != "":
			l.Does += "; the client sets log level " + p.LogLevel
		default:
			l.Does += "; the client sets no log level"
			l.Detail = strings.TrimPrefix(l.Detail+"; the lab logged at "+lab.DefaultLogLevel, "; ")
		}
		out = append(out, l)
	}
	if c := p.Changed; c != nil {
		l := ProtocolLine{Feature: labvocab.FeatureListChanged, Does: labvocab.DoesNoRelist}
		switch {
		case c.Restarted && !c.Relisted:
			l.Does = labvocab.DoesRestarts
		case !c.Relisted:
		case len(c.Added) == 0:
			l.Does = labvocab.DoesRelists
		case c.Offered == 0:
			l.Does = labvocab.DoesRelistsNever
		case c.Offered <= c.Result:
			l.Does, l.Detail = labvocab.DoesRelistsWith, fmt.Sprintf("request %d", c.Offered)
		default:
			l.Does, l.Detail = labvocab.DoesRelistsLater, fmt.Sprintf("request %d; the result in request %d", c.Offered, c.Result)
		}
		out = append(out, l)
	}
	if p.Changed == nil && slices.ContainsFunc(calls, func(c CallFacts) bool { return c.Tool == labvocab.ProtocolListChanged && c.Reached }) {
		// The server announces a change only to a session listening: over
		// 2026-07-28, a subscriptions/listen stream open for it.
		out = append(out, ProtocolLine{Feature: labvocab.FeatureListChanged, Does: labvocab.DoesNotListening})
	}
	switch r := p.Resource; {
	case r != nil && r.Subscribed:
		l := ProtocolLine{Feature: labvocab.FeatureResourceUpdated, Does: labvocab.DoesSubscribesNoReread}
		switch {
		case !r.Updated:
			l.Does = "subscribes; not sent: no resources/updated"
		case r.Reread && r.Model > 0:
			l.Does, l.Detail = labvocab.DoesRereadsReaches, fmt.Sprintf("request %d", r.Model)
		case r.Reread:
			l.Does = labvocab.DoesRereadsNeverModel
		}
		out = append(out, l)
	case slices.ContainsFunc(calls, func(c CallFacts) bool { return c.Tool == labvocab.ProtocolResourceUpdated && c.Reached }):
		out = append(out, ProtocolLine{Feature: labvocab.FeatureResourceUpdated, Does: labvocab.DoesNoSubscribe})
	}
	for _, d := range tools {
		switch {
		case d.Tool == labvocab.ProtocolAppOnly && d.Via == ViaNone:
			out = append(out, ProtocolLine{Feature: labvocab.FeatureAppOnly, Does: labvocab.DoesHidden})
		case d.Tool == labvocab.ProtocolAppOnly:
			out = append(out, ProtocolLine{Feature: labvocab.FeatureAppOnly, Does: labvocab.DoesOffered})
		case d.Tool == labvocab.ProtocolHeader && d.Via != ViaNone:
			// Properties the client kept whole are one fact, "kept".
			fate := Kept
			for _, k := range d.Keywords {
				if k.Keyword == labvocab.KeywordHeader {
					fate = k.Fate
				}
			}
			out = append(out, ProtocolLine{Feature: labvocab.FeatureHeader, Does: fate + labvocab.DoesInSchema})
		case d.Tool == labvocab.ProtocolTask:
			out = append(out, taskLine(p, calls, d))
		}
	}
	slices.SortStableFunc(out, func(a, b ProtocolLine) int { // the lab's order, whatever order a client ran its tools in
		return cmp.Compare(slices.Index(labvocab.ProtocolFeatures, a.Feature), slices.Index(labvocab.ProtocolFeatures, b.Feature))
	})
	return out
}

// taskLine says what the client did with the tool that must be called as
// a task (labvocab.ProtocolTask), d its definition: not offered; called
// as a task; called as any tool; or the model's call of it never reached
// the server, the model getting what the client said instead.
func taskLine(p *ProtocolFacts, calls []CallFacts, d ToolDef) ProtocolLine {
	l := ProtocolLine{Feature: labvocab.FeatureTask, Does: labvocab.DoesOffered}
	k := slices.IndexFunc(calls, func(c CallFacts) bool { return c.Tool == labvocab.ProtocolTask })
	switch {
	case d.Via == ViaNone:
		l.Does = labvocab.DoesHidden
	case p.Task != nil:
		return givenTask(p.Task)
	case slices.Contains(p.Tasked, labvocab.ProtocolTask):
		l.Does = labvocab.DoesCallsAsTask
	case k < 0:
		l.Detail = "the model did not call it"
	case calls[k].Reached:
		l.Does = labvocab.DoesCallsPlain
	default:
		l.Does = labvocab.DoesNeverCalls
		if c := calls[k]; c.Following != 0 {
			l.Detail = fmt.Sprintf("request %d: %q", c.Following, c.Instead)
		}
	}
	return l
}

// givenTask says what a client did with the task the server answered its
// call with (the tasks extension): whether it asked for the task's state
// until it completed, and whether the result then reached the model; the
// polls and the gaps between them in the detail (timing, not a fact the
// runs keep).
func givenTask(t *TaskFact) ProtocolLine {
	l := ProtocolLine{Feature: labvocab.FeatureTask, Does: labvocab.DoesTaskNoPoll}
	switch {
	case t.Completed && t.Model != 0:
		l.Does = labvocab.DoesTaskPolled + "; its result " + labvocab.DoesReaches
	case t.Completed:
		l.Does = labvocab.DoesTaskPolled + "; its result " + labvocab.DoesNeverReaches
	case t.Polls > 0:
		l.Does = labvocab.DoesTaskPolls
	}
	if t.Polls > 0 {
		l.Detail = fmt.Sprintf("%d polls of tasks/get", t.Polls)
		if len(t.GapsMS) > 0 {
			gaps := slices.Sorted(slices.Values(t.GapsMS))
			l.Detail += fmt.Sprintf(", %.0f-%.0f ms apart (median %.0f; the lab asked for %d)", gaps[0], gaps[len(gaps)-1], gaps[len(gaps)/2], lab.TaskPollMs)
		}
	}
	if t.Model != 0 {
		l.Detail = strings.TrimPrefix(l.Detail+fmt.Sprintf("; request %d", t.Model), "; ")
	}
	return l
}

// askFeature is the ask's feature: labvocab.FeatureElicitForm,
// FeatureElicitURL, FeatureSampling or FeatureRoots.
func askFeature(a AskFact) string {
	what, _, _ := strings.Cut(a.Summary(), ": ")
	return what
}
