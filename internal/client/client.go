package client

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"sync"
)

// A Client is one MCP client at one version.
type Client interface {
	// Spec names the client and version, as in claude-code@2.1.328.
	Spec() Spec
	// API names the fake model API shape the client talks to (see
	// fakeapi.Lookup).
	API() string
	// Provision makes the pinned version runnable, installing it once if
	// needed. It reports what it does on progress.
	Provision(ctx context.Context, progress io.Writer) error
	// Command writes the client's per-run configuration under r and returns
	// the command for one headless run. The runner sets the command's
	// stdin, stdout, stderr and process group.
	Command(ctx context.Context, r *Run) (*exec.Cmd, error)
	Observer
}

// An Observer reads a client's own evidence of a finished run (its logs,
// transcripts and stdout) into an Observation. It never fails: what cannot
// be read is reported in the Observation's warnings.
type Observer interface {
	Observe(e Evidence) Observation
}

// A ToolModeler is a client whose default model cannot call a server's
// tools by name: ToolModel is the model a run whose script calls them
// names instead, when its row names none, and why, which the run's
// evidence keeps and its outputs say (Codex CLI 0.171.0 offers MCP tools
// to a model of its catalogue only inside code its exec tool runs).
type ToolModeler interface {
	ToolModel() (model, why string)
}

// UseToolModel sets r.Model to the model c names for calling tools
// (ToolModeler) when r's script calls them and r names no model, and
// says why; "" when it set none.
func UseToolModel(c Client, r *Run) string {
	m, ok := c.(ToolModeler)
	if !ok || !r.CallTools || r.Model != "" {
		return ""
	}
	model, why := m.ToolModel()
	r.Model = model
	return why
}

// A Published client is installed from npm. Package names its npm
// package, so that instrlab sweep can list the versions npm serves.
type Published interface {
	Package() string
}

// A Spec is a client name and version.
type Spec struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

func (s Spec) String() string { return s.Name + "@" + s.Version }

var specRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z][a-z0-9-]*)(?:@([0-9A-Za-z.+-]+))?$`) })

// ParseSpec parses "name@version" or "name". An empty version means the
// client's pinned default.
func ParseSpec(s string) (Spec, error) {
	m := specRE().FindStringSubmatch(s)
	if m == nil {
		return Spec{}, fmt.Errorf("client %q: want name@version, as in claude-code@2.1.328", s)
	}
	return Spec{Name: m[1], Version: m[2]}, nil
}
