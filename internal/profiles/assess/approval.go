package assess

import (
	"fmt"
	"strings"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
)

// approvalFactName is the name of approvalFact's fact.
const approvalFactName = "approval"

// approvalFact says, per approval mode p measured besides the lab's own
// pre-approval, what becomes of a call of each of tools (those of the era
// the client ends up in, clientEra): the fate measured on the lab's tool
// whose annotations are of the same class (profiles.Hints), and what the
// model is told instead when refused; a class the lab did not measure is
// not measured. Not measured when p measured no mode.
func approvalFact(p profiles.Profile, tools []probe.Tool) Fact {
	f := Fact{Name: approvalFactName, Value: NotMeasured}
	var modes []string
	for _, a := range p.Approvals {
		if a.Mode == "" {
			continue
		}
		modes = append(modes, approvalMode(a, tools))
	}
	if len(modes) == 0 {
		return f
	}
	f.Value, f.Measured = strings.Join(modes, "; "), true
	return f
}

// approvalPhrase says a fate (profiles.Approval*) after "every tool" or
// "N of M tools".
var approvalPhrase = map[string]string{
	profiles.ApprovalRan:        "allowed",
	profiles.ApprovalRefused:    "refused",
	profiles.ApprovalNoResult:   "gets no result: the run ended first",
	profiles.ApprovalNotOffered: "not offered to the model",
	profiles.ApprovalNotCalled:  "offered, but not called",
	profiles.ApprovalNotListed:  "not listed by the lab",
}

// approvalMode says what mode a does with tools: per fate, how many of
// them, and the client's words for a refusal.
func approvalMode(a profiles.Approval, tools []probe.Tool) string {
	name := map[string]string{"default": "its default mode, no tool approved beforehand", "plan": "plan mode"}[a.Mode]
	if name == "" {
		name = a.Mode + " mode"
	}
	if len(tools) == 0 {
		return name + ": no tool of the server in the era the client ends up in"
	}
	// Tools of one fate and one text told are said together.
	type outcome struct{ fate, told string }
	var order []outcome
	count := map[outcome]int{}
	names := map[outcome][]string{}
	for _, t := range tools {
		h := profiles.Hints(t.Annotations)
		o := outcome{fate: NotMeasured + " (annotations " + h + ")"}
		for _, ta := range a.Tools {
			if ta.Hints != h {
				continue
			}
			o = outcome{approvalPhrase[ta.Fate], strings.ReplaceAll(ta.Told, profiles.ToolPlaceholder, "TOOL")}
			if ta.Fate == profiles.FateVaries {
				o.fate = fmt.Sprintf("ran in %d of %d runs", ta.Ran, a.Runs)
			}
			break
		}
		if count[o] == 0 {
			order = append(order, o)
		}
		count[o]++
		names[o] = append(names[o], t.Name)
	}
	var parts []string
	for _, o := range order {
		s := fmt.Sprintf("%s of %s tools %s %s", table.Num(count[o]), table.Num(len(tools)), nameList(names[o]), o.fate)
		if count[o] == len(tools) {
			s = "every tool " + o.fate
		}
		if o.told != "" {
			s += ", the model told " + table.Quote(o.told, 160)
		}
		parts = append(parts, s)
	}
	out := name + ": " + strings.Join(parts, ", ")
	if a.Failed > 0 {
		out += fmt.Sprintf(" (%d of %d runs ended in failure: %s)", a.Failed, a.Runs, table.Quote(a.Ended, 160))
	}
	return out
}
