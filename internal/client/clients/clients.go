// Package clients lists the MCP clients instrlab can run: adding a client
// is one folder under internal/client and one line here.
package clients

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/adk"
	"github.com/instrlab/instrlab/internal/client/aisdk"
	"github.com/instrlab/instrlab/internal/client/claudeagentsdk"
	"github.com/instrlab/instrlab/internal/client/claudecode"
	"github.com/instrlab/instrlab/internal/client/cline"
	"github.com/instrlab/instrlab/internal/client/codex"
	"github.com/instrlab/instrlab/internal/client/continuecli"
	"github.com/instrlab/instrlab/internal/client/copilot"
	"github.com/instrlab/instrlab/internal/client/droid"
	"github.com/instrlab/instrlab/internal/client/gemini"
	"github.com/instrlab/instrlab/internal/client/grok"
	"github.com/instrlab/instrlab/internal/client/kilo"
	"github.com/instrlab/instrlab/internal/client/langchain"
	"github.com/instrlab/instrlab/internal/client/mastra"
	"github.com/instrlab/instrlab/internal/client/mcpuse"
	"github.com/instrlab/instrlab/internal/client/openaiagents"
	"github.com/instrlab/instrlab/internal/client/opencode"
	"github.com/instrlab/instrlab/internal/client/qwen"
)

// Default is the client run when none is named: Claude Code at its
// pinned version, the client of the seed's experiment.
var Default = claudecode.Info.At("").Spec()

// An adapter is one client the registry knows: what its adapter states
// (client.Info) and its constructor, whose empty version is the pin.
type adapter struct {
	info client.Info
	new  func(version string) client.Client
}

// known lists the clients by name: one line a client.
var known = map[string]adapter{
	adk.Name:            {adk.Info, adk.New},
	aisdk.Name:          {aisdk.Info, aisdk.New},
	claudeagentsdk.Name: {claudeagentsdk.Info, claudeagentsdk.New},
	claudecode.Name:     {claudecode.Info, claudecode.New},
	cline.Name:          {cline.Info, cline.New},
	codex.Name:          {codex.Info, codex.New},
	continuecli.Name:    {continuecli.Info, continuecli.New},
	copilot.Name:        {copilot.Info, copilot.New},
	droid.Name:          {droid.Info, droid.New},
	gemini.Name:         {gemini.Info, gemini.New},
	langchain.Name:      {langchain.Info, langchain.New},
	mastra.Name:         {mastra.Info, mastra.New},
	mcpuse.Name:         {mcpuse.Info, mcpuse.New},
	grok.Name:           {grok.Info, grok.New},
	kilo.Name:           {kilo.Info, kilo.New},
	openaiagents.Name:   {openaiagents.Info, openaiagents.New},
	opencode.Name:       {opencode.Info, opencode.New},
	qwen.Name:           {qwen.Info, qwen.New},
}

// Register adds a client constructor under name, for tests and clients
// kept outside this module. It replaces any earlier one.
func Register(name string, f func(version string) client.Client) {
	known[name] = adapter{client.Info{Name: name}, f}
}

// Display is the client's name as its makers write it (client.Info), or,
// for a client whose adapter does not say, "some-client" as "Some Client".
func Display(name string) string {
	if a, ok := known[name]; ok && a.info.Display != "" {
		return a.info.Display
	}
	words := strings.Split(name, "-")
	for i, w := range words {
		if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	return strings.Join(words, " ")
}

// New returns the client a -client flag names, as in claude-code@2.1.328.
func New(spec string) (client.Client, error) {
	s, err := client.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	a, ok := known[s.Name]
	if !ok {
		return nil, fmt.Errorf("client %q: unknown (known: %s)", s.Name, strings.Join(Names(), ", "))
	}
	return a.new(s.Version), nil
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
