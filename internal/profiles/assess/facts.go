package assess

import (
	"fmt"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
)

// A Fact is one property of a profile as check shows it: its value in
// words, and whether the profile's evidence measured it. An unmeasured
// fact's value says "not measured", never a guess.
type Fact struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Measured bool   `json:"measured"`
}

// NotMeasured is the value of a fact the evidence does not cover.
const NotMeasured = "not measured"

// Facts are p's properties beside the cap and placement (which the view
// shows as it applies them): the model it was measured with, the cap on
// tool descriptions, and what the client does with a slow server.
func Facts(p profiles.Profile) []Fact {
	var out []Fact
	if p.Model != "" {
		out = append(out, Fact{Name: "measured with", Value: "model " + p.Model, Measured: true})
	} else {
		out = append(out, Fact{Name: "measured with", Value: "model " + NotMeasured})
	}
	out = append(out, toolFact(p.ToolDescriptions))
	out = append(out, slowFact(p), surfaceFact(p), resultFact(p), callTimeFact(p))
	if p.Render.Placement == NotMeasured {
		out = append(out, Fact{Name: "placement", Value: NotMeasured})
	}
	return out
}

func toolFact(l profiles.Limit) Fact {
	f := Fact{Name: "tool descriptions"}
	switch {
	case l.Unsent:
		f.Value, f.Measured = "not sent: "+unsentWords(l.Via), true
		if l.Cap > 0 {
			f.Value += fmt.Sprintf("; when sent, cut at %s %s", table.Num(l.Cap), unitPlural(l.Unit))
			if l.Marker != "" {
				f.Value += fmt.Sprintf(", then %q", l.Marker)
			}
			if !l.Measured {
				f.Value += " (" + NotMeasured + ": from documentation)"
			}
		}
	case l.Cap > 0:
		f.Value = fmt.Sprintf("cut at %s %s", table.Num(l.Cap), unitPlural(l.Unit))
		if l.Marker != "" {
			f.Value += fmt.Sprintf(", then %q", l.Marker)
		}
		if l.Whole > 0 {
			f.Value += fmt.Sprintf(", when longer than %s (%s arrived whole)", table.Num(l.Whole), table.Num(l.Whole))
		}
		f.Measured = l.Measured
		if !l.Measured {
			f.Value += " (" + NotMeasured + ": from documentation)"
		}
	case l.AtLeast > 0:
		f.Value = fmt.Sprintf("none cut up to %s characters; a cap above that %s", table.Num(l.AtLeast), NotMeasured)
		f.Measured = true
	default:
		f.Value = "cap " + NotMeasured
	}
	if !l.Unsent && l.Lines == profiles.LinesFirst {
		f.Value += "; of a description of several lines, only the first line (measured)"
	}
	if w := trimWords[l.Trim]; !l.Unsent && w != "" {
		f.Value += "; " + w + " (measured)"
	}
	return f
}

// trimWords say what a client does with the white space around a tool
// description (profiles.Limit.Trim); a client that keeps it says
// nothing.
var trimWords = map[string]string{
	profiles.TrimStart: "white space at a description's start removed",
	profiles.TrimEnd:   "white space at a description's end removed",
	profiles.TrimBoth:  "white space around a description removed",
}

// unsentWords say what the model sees of a tool whose description is
// not sent, by how the runs found it (profiles.Limit.Via).
func unsentWords(via string) string {
	switch via {
	case "name only":
		return "the model sees each tool's name only"
	case "server namespace":
		return "the model sees only the server's namespace, no tool names"
	}
	return "no request named the tools"
}

// unitPlural is a limit's unit in words ("characters" for code points).
func unitPlural(u string) string {
	if x, err := unit.Parse(u); err == nil && x != unit.CodePoint {
		return x.Plural()
	}
	return "characters"
}

func slowFact(p profiles.Profile) Fact {
	s := p.Startup
	f := Fact{Name: "slow server"}
	switch {
	case s.Waited == nil:
		f.Value = "whether it waits " + NotMeasured
	case *s.Waited:
		f.Value = "waited for a server that answered " + s.Held + " late: the text was in the first request"
		f.Measured = true
	default:
		f.Value = "did not wait for a server that answered " + s.Held + " late: the first request went out without it"
		f.Measured = true
	}
	// A measured wait budget says how long, as startup-slow reads it.
	if w := startupWait(p, func(string) (string, bool) { return "", false }); w.budget != nil {
		if s.Waited == nil {
			f.Value = "waits " + w.String()
		} else {
			f.Value += "; waits " + w.String()
		}
		f.Measured = true
	} else if s.TimeoutMs > 0 {
		f.Value += fmt.Sprintf("; waits up to %s ms", table.Num(s.TimeoutMs))
	} else if f.Measured {
		f.Value += "; how long it waits " + NotMeasured
	}
	return f
}

func factLines(fs []Fact) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name+": "+f.Value)
	}
	return out
}
