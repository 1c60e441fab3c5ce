package claudecode

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// Files a run leaves in the client dir (evidence.RunDir.Client), and the
// folder under HOME holding the transcripts.
const (
	MCPConfigFile = "mcp.json"
	DebugFile     = "debug.log"
	projectsDir   = ".claude/projects"
)

// Command implements client.Client: claude -p with stream-json output,
// hooks off, only the generated MCP config, and a debug file.
func (c *Claude) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if c.bin == "" {
		return nil, fmt.Errorf("%s@%s is not provisioned", Name, c.Version)
	}
	dir := r.ClientDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating client dir: %w", err)
	}
	cfg, err := MCPConfig(r.Servers)
	if err != nil {
		return nil, err
	}
	cfgPath := filepath.Join(dir, MCPConfigFile)
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		return nil, fmt.Errorf("writing MCP config: %w", err)
	}
	if err := writeCached(r); err != nil {
		return nil, err
	}
	maxTurns := r.MaxTurns
	if maxTurns == 0 {
		maxTurns = 1
	}
	args := []string{"-p", r.Prompt, "--output-format", "stream-json", "--verbose",
		"--max-turns", strconv.Itoa(maxTurns)}
	if c.has("--settings") {
		s, err := settings(r.Arm)
		if err != nil {
			return nil, err
		}
		args = append(args, "--settings", s)
	}
	if c.has("--strict-mcp-config") {
		args = append(args, "--strict-mcp-config")
	}
	args = append(args, "--mcp-config", cfgPath)
	if c.has("--debug-file") {
		args = append(args, "--debug-file", filepath.Join(dir, DebugFile))
	}
	if r.Model != "" {
		args = append(args, "--model", r.Model)
	}
	if r.Arm.Approval == client.ApprovalPlan {
		args = append(args, "--permission-mode", "plan")
	}
	if r.CallTools && r.Arm.Approval == "" && c.has("--allowed-tools") {
		// -p denies a tool it would ask about; mcp__NAME allows every tool
		// of that server.
		var allow []string
		for _, s := range r.Servers {
			allow = append(allow, "mcp__"+s.Name)
		}
		args = append(args, "--allowed-tools", strings.Join(allow, ","))
	}
	args = append(args, r.Flags...)
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Dir = r.Work
	env := Env(r)
	if r.Arm.Direct {
		delete(env, "ANTHROPIC_BASE_URL") // the vendor's host (Vendor)
	}
	cmd.Env = r.Environ(env)
	return cmd, nil
}

// Env is the environment that runs Claude Code offline against the run's
// fake: its base URL and dummy key, telemetry and non-essential traffic
// off. The Claude Agent SDK's own Claude Code gets the same.
func Env(r *client.Run) map[string]string {
	return map[string]string{
		"ANTHROPIC_BASE_URL":                       r.APIURL,
		"ANTHROPIC_API_KEY":                        r.APIKey,
		"DISABLE_TELEMETRY":                        "1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
	}
}

// MCPConfig renders the --mcp-config file for one stdio server.
func MCPConfig(servers []client.Server) ([]byte, error) {
	type server struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
	}
	entries, err := client.ServerObject(servers, func(s client.Server) (any, error) {
		if s.URL != "" {
			return map[string]string{"type": "http", "url": s.URL}, nil
		}
		return server{Type: "stdio", Command: s.Command, Args: s.Args, Env: s.Env}, nil
	})
	if err != nil {
		return nil, err
	}
	cfg := map[string]any{"mcpServers": entries}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding MCP config: %w", err)
	}
	return append(b, '\n'), nil
}

// has reports whether the provisioned version lists flag in its --help;
// a version whose flags were not read (claude found on PATH by a test)
// is taken to have them all.
func (c *Claude) has(flag string) bool { return c.flags == nil || c.flags[flag] }
