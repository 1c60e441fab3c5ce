package assess

import (
	"fmt"

	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
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
	out = append(out, slowFact(p.Startup))
	if p.Render.Placement == NotMeasured {
		out = append(out, Fact{Name: "placement", Value: NotMeasured})
	}
	return out
}

func toolFact(l profiles.Limit) Fact {
	f := Fact{Name: "tool descriptions"}
	switch {
	case l.Cap > 0:
		f.Value = fmt.Sprintf("cut at %s characters", table.Num(l.Cap))
		if l.Marker != "" {
			f.Value += fmt.Sprintf(", then %q", l.Marker)
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
	return f
}

func slowFact(s profiles.Startup) Fact {
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
	if s.TimeoutMs > 0 {
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
