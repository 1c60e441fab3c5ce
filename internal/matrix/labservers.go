package matrix

import (
	"fmt"

	"github.com/instrlab/instrlab/lab"
)

// A LabServer is one lab server of a row that runs several (servers): its
// name in the client's config, in the config's order, and its
// instructions (the row's when empty). Each is started with -seed NAME,
// so its codewords are its own and its text is told apart from the
// others' in the captured requests.
type LabServer struct {
	Name  string `json:"name"`
	Instr string `json:"instr,omitempty"`
}

// LabServers returns the row's lab servers with every instr set, or none
// for a row of one server.
func (r Row) LabServers() []LabServer {
	out := make([]LabServer, 0, len(r.Servers))
	for _, s := range r.Servers {
		if s.Instr == "" {
			s.Instr = r.Instr
		}
		out = append(out, s)
	}
	return out
}

// ConfigNames are the names of the row's servers in the client's config,
// in its order: the row's lab servers, else its one server. A client's
// observation reads the first (client.Evidence.Primary) by name.
func (r Row) ConfigNames() []string {
	if len(r.Servers) == 0 {
		return []string{r.ServerName()}
	}
	out := make([]string, len(r.Servers))
	for i, s := range r.Servers {
		out[i] = s.Name
	}
	return out
}

// LabFor is the flags of the row's lab server s, logging to logPath: the
// row's flags with s's instructions and s's name as the seed.
func (r Row) LabFor(s LabServer, logPath string) lab.Args {
	a := r.Lab(logPath)
	if s.Instr != "" {
		a.Instr = s.Instr
	}
	a.Seed = s.Name
	return a
}

// validateServers checks a row of lab servers: two at least, or one named
// other than the lab (a lab under another name), each named as a config
// key, no name twice, each one's lab flags valid.
func (r Row) validateServers() error {
	if len(r.Servers) == 0 {
		return nil
	}
	switch {
	case len(r.Servers) < 2 && r.Servers[0].Name == ServerName:
		return fmt.Errorf("row %q: servers: want two or more, or one named other than %s (the row's own lab)", r.Name, ServerName)
	case r.Server != "" || r.InstrFile != "" || r.ToolDescFile != "":
		return fmt.Errorf("row %q: servers are lab servers of generated texts: drop server, instr_file and tool_description_file", r.Name)
	}
	seen := map[string]bool{}
	for i, s := range r.LabServers() {
		switch {
		case s.Name == "" || configNameRE().MatchString(s.Name):
			return fmt.Errorf("row %q: server %d: name %q: want letters, digits, '_' or '-'", r.Name, i+1, s.Name)
		case seen[s.Name]:
			return fmt.Errorf("row %q: two servers named %q", r.Name, s.Name)
		}
		seen[s.Name] = true
		if err := r.LabFor(s, "").Validate(); err != nil {
			return fmt.Errorf("row %q: server %q: %w", r.Name, s.Name, err)
		}
	}
	return nil
}
