package codex

import (
	"fmt"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
)

// ProviderID is the id of the model provider the config adds; KeyVar is
// the variable that holds its (dummy) key.
const (
	ProviderID = "instrlab"
	KeyVar     = "INSTRLAB_OPENAI_KEY"
)

// Config renders $CODEX_HOME/config.toml for one run: a provider speaking
// the Responses API to the fake, no approvals, a read-only sandbox,
// analytics and feedback off, and the lab server as the only MCP server.
// model may be empty for Codex's default.
func Config(r *client.Run, model string) string {
	var b strings.Builder
	if model != "" {
		fmt.Fprintf(&b, "model = %s\n", tomlString(model))
	}
	if !r.Arm.Direct { // else Codex's built-in provider "openai" (Vendor)
		fmt.Fprintf(&b, "model_provider = %s\n", tomlString(ProviderID))
	}
	b.WriteString("approval_policy = \"never\"\nsandbox_mode = \"read-only\"\n\n")
	b.WriteString("[analytics]\nenabled = false\n\n[feedback]\nenabled = false\n\n")
	if !r.Arm.Direct {
		fmt.Fprintf(&b, "[model_providers.%s]\nname = %s\nbase_url = %s\nenv_key = %s\nwire_api = \"responses\"\n\n",
			ProviderID, tomlString("instrlab fake"), tomlString(strings.TrimRight(r.APIURL, "/")+"/v1"), tomlString(KeyVar))
	}
	for i, s := range r.Servers {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeServer(&b, s, r.CallTools && r.Arm.Approval == "")
	}
	return b.String()
}

// writeServer writes one [mcp_servers.NAME] table; TOML keeps the
// config's order of servers. With approve, the server's tools run
// without asking (default_tools_approval_mode "approve"): with approval
// policy never, 0.171.0 refuses an MCP tool call otherwise ("MCP tool
// call requires approval, but approval policy is never").
func writeServer(b *strings.Builder, s client.Server, approve bool) {
	fmt.Fprintf(b, "[mcp_servers.%s]\n", tomlKey(s.Name))
	if approve {
		b.WriteString("default_tools_approval_mode = \"approve\"\n")
	}
	if s.URL != "" {
		fmt.Fprintf(b, "url = %s\n", tomlString(s.URL))
		return
	}
	fmt.Fprintf(b, "command = %s\nargs = [", tomlString(s.Command))
	for i, a := range s.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(tomlString(a))
	}
	b.WriteString("]\n")
	if len(s.Env) > 0 {
		fmt.Fprintf(b, "\n[mcp_servers.%s.env]\n", tomlKey(s.Name))
		keys := make([]string, 0, len(s.Env))
		for k := range s.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(b, "%s = %s\n", tomlKey(k), tomlString(s.Env[k]))
		}
	}
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlKey writes a bare key when s allows it, else a quoted one.
func tomlKey(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return tomlString(s)
		}
	}
	return s
}
