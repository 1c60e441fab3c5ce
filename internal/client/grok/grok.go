package grok

import (
	"cmp"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/client/pins"
)

// Name is the client's name in -client flags.
const Name = "grok"

// DefaultVersion is the version run when -client names no version: its
// pin in internal/client/pins.
var DefaultVersion = pins.Version(Name)

// Info is Grok CLI as the registry lists it.
var Info = client.Info{Name: Name, Display: "Grok CLI", API: "openai-chat", Default: DefaultVersion}

// Package is its npm package.
const Package = "@vibe-kit/grok-cli"

// DefaultModel is its own default model (its project settings' model),
// named to the fake when the row names none.
const DefaultModel = "grok-code-fast-1"

// SettingsFile is the copy of .grok/settings.json kept in the client dir;
// HeadlessFile the copy of the program that runs it.
const (
	SettingsFile = "settings.json"
	HeadlessFile = "headless.mjs"
)

//go:embed headless.mjs
var headless []byte

// Grok is one version of Grok CLI.
type Grok struct {
	client.Base
	node, script string
}

// New returns Grok CLI at version, or DefaultVersion when version is
// empty.
func New(version string) client.Client { return &Grok{Base: Info.At(version)} }

// Package implements client.Published: the npm package it installs.
func (g *Grok) Package() string { return Package }

// Provision implements client.Client: npm installs @vibe-kit/grok-cli, a
// Node.js program run on the node found on PATH.
func (g *Grok) Provision(ctx context.Context, progress io.Writer) error {
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: Name, Version: g.Version, Name: Package}, progress,
		"node_modules/@vibe-kit/grok-cli/dist/index.js")
	if err != nil {
		return err
	}
	g.node, g.script = node, script
	return nil
}

// Settings renders the project settings .grok/settings.json of one run:
// its model and the run's servers, each {name, transport}.
func Settings(r *client.Run, model string) ([]byte, error) {
	if err := client.CheckServers(r.Servers); err != nil {
		return nil, err
	}
	type transport struct {
		Type    string            `json:"type"`
		Command string            `json:"command,omitempty"`
		Args    []string          `json:"args,omitempty"`
		Env     map[string]string `json:"env,omitempty"`
		URL     string            `json:"url,omitempty"`
	}
	type server struct {
		Name      string    `json:"name"`
		Transport transport `json:"transport"`
	}
	servers := make(map[string]server, len(r.Servers))
	for _, s := range r.Servers {
		t := transport{Type: "stdio", Command: s.Command, Args: s.Args, Env: s.Env}
		if s.URL != "" {
			// "http", as its README adds an HTTP server: its
			// "streamable_http" transport throws on the first message.
			t = transport{Type: "http", URL: s.URL}
		}
		servers[s.Name] = server{Name: s.Name, Transport: t}
	}
	b, err := json.MarshalIndent(map[string]any{"model": model, "mcpServers": servers}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding grok settings.json: %w", err)
	}
	return append(b, '\n'), nil
}

// Command implements client.Client: grok -p (headless) with the fake as
// its base URL and the run's dummy key, under headless.mjs, which ends it
// after its last message.
func (g *Grok) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if g.script == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, g.Version)
	}
	model := cmp.Or(r.Model, DefaultModel)
	settings, err := Settings(r, model)
	if err != nil {
		return nil, err
	}
	if err := r.WriteConfig(filepath.Join(r.Work, ".grok", "settings.json"), SettingsFile, settings); err != nil {
		return nil, err
	}
	wrapper := filepath.Join(r.ClientDir(), HeadlessFile)
	if err := r.WriteConfig(wrapper, HeadlessFile, headless); err != nil {
		return nil, err
	}
	args := []string{wrapper, g.script, "-p", r.Prompt, "-k", r.APIKey, "-u", strings.TrimRight(r.APIURL, "/") + "/v1", "-m", model}
	if r.MaxTurns > 0 {
		args = append(args, "--max-tool-rounds", fmt.Sprint(r.MaxTurns))
	}
	args = append(args, r.Flags...)
	cmd := exec.CommandContext(ctx, g.node, args...)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(nil)
	return cmd, nil
}
