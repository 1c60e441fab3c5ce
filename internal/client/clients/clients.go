// Package clients lists the MCP clients instrlab can run: adding a client
// is one folder under internal/client and one line here.
package clients

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/claudecode"
	"github.com/instrlab/instrlab/internal/client/cline"
	"github.com/instrlab/instrlab/internal/client/codex"
	"github.com/instrlab/instrlab/internal/client/continuecli"
	"github.com/instrlab/instrlab/internal/client/copilot"
	"github.com/instrlab/instrlab/internal/client/droid"
	"github.com/instrlab/instrlab/internal/client/gemini"
	"github.com/instrlab/instrlab/internal/client/kilo"
	"github.com/instrlab/instrlab/internal/client/opencode"
	"github.com/instrlab/instrlab/internal/client/qwen"
)

// Default is the client run when none is named: Claude Code at its
// pinned version, the client of the seed's experiment.
var Default = client.Spec{Name: claudecode.Name, Version: claudecode.DefaultVersion}

// known maps a client name to its constructor; an empty version means the
// client's pinned default.
var known = map[string]func(version string) client.Client{
	claudecode.Name:  claudecode.New,
	cline.Name:       cline.New,
	codex.Name:       codex.New,
	continuecli.Name: continuecli.New,
	copilot.Name:     copilot.New,
	droid.Name:       droid.New,
	gemini.Name:      gemini.New,
	kilo.Name:        kilo.New,
	opencode.Name:    opencode.New,
	qwen.Name:        qwen.New,
}

// Register adds a client constructor under name, for tests and clients
// kept outside this module. It replaces any earlier one.
func Register(name string, f func(version string) client.Client) {
	known[name] = f
}

// New returns the client a -client flag names, as in claude-code@2.1.328.
func New(spec string) (client.Client, error) {
	s, err := client.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	f, ok := known[s.Name]
	if !ok {
		return nil, fmt.Errorf("client %q: unknown (known: %s)", s.Name, strings.Join(Names(), ", "))
	}
	return f(s.Version), nil
}

// Names lists the known client names, sorted.
func Names() []string {
	var out []string
	for n := range known {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
