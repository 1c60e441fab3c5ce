package surface

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/instrlab/instrlab/lab"
)

// A ReadFact says whether the text of a resource the client read
// (resources/read, as its own resource tool asks the server) reached the
// model, and where: the first request that carries it, from the first on.
type ReadFact struct {
	URI string `json:"uri"`
	Found
	Request int `json:"request,omitempty"`
}

// Reads looks for the text of every resources/read reply in log (each
// content's text, once per URI and text) in reqs, in order.
func Reads(reqs []Request, log []lab.Entry) []ReadFact {
	var out []ReadFact
	seen := map[string]bool{}
	for _, e := range log {
		if e.Method != "resources/read" || e.Dir != lab.Send || e.Kind != lab.KindResponse || len(e.Body) == 0 {
			continue
		}
		var reply struct {
			Result struct {
				Contents []struct{ URI, Text string }
			}
		}
		if json.Unmarshal(e.Body, &reply) != nil {
			continue
		}
		for i, c := range reply.Result.Contents {
			if c.Text == "" || seen[c.URI+"\x00"+c.Text] {
				continue
			}
			seen[c.URI+"\x00"+c.Text] = true
			p := part(fmt.Sprintf("contents[%d] text", i), FormText, c.Text)
			r := ReadFact{URI: c.URI, Found: Found{Part: p.Name, SentForm: p.Form, Sent: p.Sent}}
			for _, q := range reqs {
				if f := Locate(q.Context, "", p); f.Reached {
					r.Found, r.Request = f, q.Seq
					break
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// OwnCalls are the names of the calls the fake made, in reqs' replies, of
// tools the server did not list: the client's own tools (its resource
// tools, Bash), each once, in order, one called through the client's
// invoker named with it; a loader's calls (ToolSearch) are left out.
func OwnCalls(reqs []Request, log []lab.Entry) []string {
	listed := map[string]bool{}
	for _, t := range listedTools(log) {
		listed[t.Name] = true
	}
	var out []string
	for _, r := range reqs {
		if len(r.Loading) > 0 {
			continue
		}
		for _, c := range r.Calls {
			name := c.Name
			if c.Deferred != "" { // through the client's invoker of loaded tools (Qwen Code's tool_call)
				name = c.Deferred + " (through " + c.Name + ")"
			}
			if !listed[c.Tool] && !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	return out
}
