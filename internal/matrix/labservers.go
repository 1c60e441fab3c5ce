package matrix

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
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

// labServers returns the row's lab servers with every instr set, or nil
// for a row of one server.
func (r Row) labServers() []LabServer {
	out := make([]LabServer, 0, len(r.Servers))
	for _, s := range r.Servers {
		if s.Instr == "" {
			s.Instr = r.Instr
		}
		out = append(out, s)
	}
	return out
}

// configNames are the servers of the row's runs by name, in the client's
// config's order: the row's lab servers, else its one server. A client's
// observation reads the first (client.Run.Primary) by name.
func (r Row) configNames() []client.Server {
	if len(r.Servers) == 0 {
		return []client.Server{{Name: r.ServerName()}}
	}
	out := make([]client.Server, len(r.Servers))
	for i, s := range r.Servers {
		out[i] = client.Server{Name: s.Name}
	}
	return out
}

// LabFor is the flags of the row's lab server s, logging to logPath: the
// row's flags with s's instructions and s's name as the seed.
func (r Row) LabFor(s LabServer, logPath string) (lab.Args, error) {
	a, err := r.Lab(logPath)
	if s.Instr != "" {
		a.Instr = s.Instr
	}
	a.Seed = s.Name
	return a, err
}

// labServers is the client's config of the row's lab servers, each
// logging to its own file of files.
func labServers(exe string, row Row, files evidence.RunDir) ([]client.Server, error) {
	var out []client.Server
	for i, s := range row.labServers() {
		a, err := row.LabFor(s, files.ServerLog(i, s.Name))
		if err != nil {
			return nil, err
		}
		out = append(out, client.Server{Name: s.Name, Command: exe, Args: append(slices.Clone(lab.Subcommand), a.Args()...)})
	}
	return out, nil
}

// validateServers checks a row of several lab servers: two at least, each
// named as a config key, no name twice, each one's lab flags valid.
func (r Row) validateServers() error {
	if len(r.Servers) == 0 {
		return nil
	}
	switch {
	case len(r.Servers) < 2:
		return fmt.Errorf("row %q: servers: want two or more (one is the row's own lab)", r.Name)
	case r.Server != "" || r.InstrFile != "" || r.ToolDescFile != "":
		return fmt.Errorf("row %q: servers are lab servers of generated texts: drop server, instr_file and tool_description_file", r.Name)
	}
	seen := map[string]bool{}
	for i, s := range r.labServers() {
		switch {
		case s.Name == "" || configNameRE().MatchString(s.Name):
			return fmt.Errorf("row %q: server %d: name %q: want letters, digits, '_' or '-'", r.Name, i+1, s.Name)
		case seen[s.Name]:
			return fmt.Errorf("row %q: two servers named %q", r.Name, s.Name)
		}
		seen[s.Name] = true
		a, err := r.LabFor(s, "")
		if err == nil {
			err = a.Validate()
		}
		if err != nil {
			return fmt.Errorf("row %q: server %q: %w", r.Name, s.Name, err)
		}
	}
	return nil
}

// A ServerResult is one lab server of a row of several: what it sent and
// where its text was in the first main request.
type ServerResult struct {
	Name string `json:"name"`
	// Sent is the characters of its initialize-era text; 0 with none.
	Sent int `json:"sent"`
	// Placements are where its text was in the first main request.
	Placements []Placement `json:"placements"`
	// Kept is the most characters of its text kept in one placement.
	Kept int `json:"kept"`
	// Order is its place among the servers whose text arrived, by segment
	// and then offset in the request (1 first); 0 when it did not arrive.
	Order int `json:"order"`
}

// errNoText is the error of a server that sends no instructions.
var errNoText = errors.New("no instructions")

// serverTexts returns the texts of lab server s of the row, by era.
func (r Row) serverText(s LabServer) (map[string]string, error) {
	in, err := lab.ParseInstructions(s.Instr)
	if err != nil {
		return nil, err
	}
	if !in.Present() {
		return nil, errNoText
	}
	in.Seed = s.Name
	texts := map[string]string{}
	for _, era := range []string{lab.EraInitialize, lab.EraDiscover} {
		t, err := in.For(era)
		if err != nil {
			return nil, err
		}
		texts[era] = t.Text
	}
	return texts, nil
}

// locateServers finds each lab server's text of the row in ctx, the first
// main request, and orders the servers that arrived as the request does.
// Bad rows become warnings.
func locateServers(row Row, ctx fakeapi.Context) ([]ServerResult, []string) {
	type at struct{ seg, off int }
	var out []ServerResult
	var warns []string
	first := map[int]at{}
	for _, s := range row.labServers() {
		res := ServerResult{Name: s.Name, Placements: []Placement{}}
		texts, err := row.serverText(s)
		if err != nil && !errors.Is(err, errNoText) {
			warns = append(warns, fmt.Sprintf("server %s: %v", s.Name, err))
		}
		res.Sent = utf8.RuneCountInString(texts[lab.EraInitialize])
		for i := range ctx {
			for _, era := range []string{lab.EraInitialize, lab.EraDiscover} {
				for _, p := range locate(ctx[i:i+1], era, texts[era]) {
					if _, ok := first[len(out)]; !ok {
						first[len(out)] = at{i, p.Offset}
					}
					res.Placements = append(res.Placements, p)
					res.Kept = max(res.Kept, p.Kept)
				}
			}
		}
		out = append(out, res)
	}
	arrived := make([]int, 0, len(first))
	for i := range first {
		arrived = append(arrived, i)
	}
	sort.Slice(arrived, func(a, b int) bool {
		x, y := first[arrived[a]], first[arrived[b]]
		return x.seg < y.seg || x.seg == y.seg && x.off < y.off
	})
	for n, i := range arrived {
		out[i].Order = n + 1
	}
	return out, warns
}
