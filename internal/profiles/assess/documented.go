package assess

import (
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/profiles"
)

// A Documented conflict is a limit a model API's provider documents
// (profiles.Documented) that the server's text breaks as the clients
// measured send it: documented, not measured, since the fake API that
// measured them refuses nothing. It is never a finding, and never
// decides a verdict.
type Documented struct {
	Provider string `json:"provider"`
	// API is the model API the clients' requests used.
	API string `json:"api"`
	// Limit is the limit in a few words; Source where it is documented.
	Limit  string `json:"limit"`
	Source string `json:"source"`
	// Tools are the server's tools whose names break it.
	Tools []DocumentedTool `json:"tools"`
}

// A DocumentedTool is a tool whose name, as clients send it, breaks a
// documented limit.
type DocumentedTool struct {
	Tool string `json:"tool"`
	// Name is the name the clients send (their prefix before it); Why
	// how it breaks the limit.
	Name string `json:"name"`
	Why  string `json:"why"`
	// Clients are the views (client and arm, as check titles them) that
	// send it so.
	Clients []string `json:"clients"`
}

// documentedHit is one tool of one view past a documented limit.
type documentedHit struct {
	limit profiles.Documented
	tool  DocumentedTool
}

// documentedHits are the tools of v whose names, as the profile
// predicts the client sends them whole (kept), break a limit documented
// for the profile's model API.
func documentedHits(p profiles.Profile, v View) []documentedHit {
	var hits []documentedHit
	for _, d := range profiles.DocumentedFor(p.API, profiles.DocumentedToolName) {
		for _, f := range v.Surface {
			if f.Name == "" || f.NameFate != profiles.FateKept {
				continue
			}
			if why := d.Breaks(f.Name); why != "" {
				hits = append(hits, documentedHit{d, DocumentedTool{Tool: f.Tool, Name: f.Name, Why: why, Clients: []string{v.Title}}})
			}
		}
	}
	return hits
}

// documentedConflicts gathers the views' hits: one entry per limit, in
// the order of profiles.DocumentedLimits, one tool per name sent, with
// every view that sends it.
func documentedConflicts(views []View) []Documented {
	var out []Documented
	for _, d := range profiles.DocumentedLimits {
		c := Documented{Provider: d.Provider, API: d.API, Limit: d.Says(), Source: d.Source}
		for _, v := range views {
			for _, h := range v.documented {
				if h.limit.API != d.API || h.limit.What != d.What {
					continue
				}
				i := slices.IndexFunc(c.Tools, func(t DocumentedTool) bool { return t.Name == h.tool.Name })
				if i < 0 {
					c.Tools = append(c.Tools, h.tool)
					continue
				}
				if !slices.Contains(c.Tools[i].Clients, v.Title) {
					c.Tools[i].Clients = append(c.Tools[i].Clients, v.Title)
				}
			}
		}
		if len(c.Tools) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// documented writes the server's documented conflicts after its
// answer, apart from what was measured.
func (p *printer) documented(s Server) {
	if len(s.Documented) == 0 {
		return
	}
	p.b.WriteString("\n")
	p.hang("", "documented by providers, not measured (the fake model API refuses nothing, so no run shows a provider refusing a request)")
	for _, c := range s.Documented {
		p.hang("  ", c.Provider+" ("+c.API+"): "+c.Limit+"; "+c.Source)
		for _, t := range c.Tools {
			p.hang("    ", line("tool "+t.Tool+" sent as "+t.Name+" ("+t.Why+"): "+strings.Join(t.Clients, ", ")))
		}
	}
}

// documentedTools says c's tools on one line: each name as sent, how it
// breaks the limit, and the clients.
func documentedTools(c Documented) string {
	var parts []string
	for _, t := range c.Tools {
		parts = append(parts, t.Name+" ("+t.Why+"; "+strings.Join(t.Clients, ", ")+")")
	}
	return strings.Join(parts, ", ")
}
