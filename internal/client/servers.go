package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
)

// Primary is the run's first server: the one whose name Evidence.Primary
// gives the client's observation after the run.
func (r *Run) Primary() Server {
	if len(r.Servers) == 0 {
		return Server{}
	}
	return r.Servers[0]
}

// CheckServers reports a server without a name and two servers with one
// name: a client's config keys its servers by name.
func CheckServers(servers []Server) error {
	seen := map[string]bool{}
	for i, s := range servers {
		switch {
		case s.Name == "":
			return fmt.Errorf("server %d has no name", i+1)
		case seen[s.Name]:
			return fmt.Errorf("two servers are named %q", s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}

// ServerObject encodes servers as the JSON object most clients' configs
// hold ("mcpServers": {NAME: ENTRY, ...}), entry giving each server's
// value, with the names in the list's order: a map would sort them, and
// the order of a config's servers is one of the things a run of several
// servers measures.
func ServerObject[E any](servers []Server, entry func(Server) (E, error)) (json.RawMessage, error) {
	if err := CheckServers(servers); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, s := range servers {
		e, err := entry(s)
		if err != nil {
			return nil, err
		}
		name, err := json.Marshal(s.Name)
		if err != nil {
			return nil, err
		}
		value, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("encoding server %q: %w", s.Name, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// StdioEntry sets in e, a stdio server's entry in a client's config, its
// command, its args (an empty list when it has none: some clients refuse
// a missing one) and its env when it has one, and returns e.
func StdioEntry(e map[string]any, s Server) map[string]any {
	e["command"], e["args"] = s.Command, s.Args
	if s.Args == nil {
		e["args"] = []string{}
	}
	if len(s.Env) > 0 {
		e["env"] = s.Env
	}
	return e
}

// TypedServersConfig is the config file {"mcpServers": ...} (ServerObject,
// EncodeConfig naming it what in an error) of the clients whose entries
// name their transport in a "type" key: a URL server as {"type": urlType,
// "url": ..., "env": ...}, a stdio one as {"type": "stdio", "command":
// ..., "args": ..., "env": ...} (StdioEntry). Every entry also holds
// common, the keys the client wants in each, and last the arm's
// per-server settings (mcpServers.*.KEY).
func TypedServersConfig(servers []Server, arm Arm, urlType string, common map[string]any, what string) ([]byte, error) {
	entries, err := ServerObject(servers, func(s Server) (map[string]any, error) {
		e := map[string]any{"type": urlType, "url": s.URL}
		if s.URL == "" {
			e = StdioEntry(map[string]any{"type": "stdio"}, s)
		} else if len(s.Env) > 0 {
			e["env"] = s.Env
		}
		maps.Copy(e, common)
		maps.Copy(e, arm.ServerSettings("mcpServers"))
		return e, nil
	})
	if err != nil {
		return nil, err
	}
	return EncodeConfig(map[string]any{"mcpServers": entries}, what)
}

// EncodeConfig is v as a client's JSON config file: indented by two
// spaces, ending in a line break; what names the file in an error.
func EncodeConfig(v any, what string) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", what, err)
	}
	return append(b, '\n'), nil
}
