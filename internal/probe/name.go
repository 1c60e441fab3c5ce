package probe

import (
	"path/filepath"
	"strings"
)

// launchers are programs that run the server named by their first
// argument that is not a flag: the server is named after that.
var launchers = map[string]bool{
	"node": true, "npx": true, "bunx": true, "bun": true, "deno": true, "pnpm": true, "pnpx": true,
	"yarn": true, "npm": true, "python": true, "python3": true, "uv": true, "uvx": true, "pipx": true,
	"docker": true, "podman": true, "go": true, "java": true, "ruby": true, "php": true, "tsx": true,
	"ts-node": true, "env": true, "cmd": true, "sh": true, "bash": true,
}

// launcherWords are arguments of a launcher that are verbs, not the server.
var launcherWords = map[string]bool{"run": true, "exec": true, "dlx": true, "x": true, "tool": true, "-y": true, "/c": true}

// genericScripts are script names that say nothing; their folder names
// the server instead.
var genericScripts = map[string]bool{"index": true, "main": true, "server": true, "cli": true, "app": true, "__main__": true}

// CommandName names a stdio server as a person would in a config: after
// its program, or, when the program is a launcher (node, npx, uvx,
// python, docker ...), after the package or script it runs, without
// scope, version or extension ("@acme/server-notes@1.2" → server-notes,
// "build/index.js" → the folder above build).
func CommandName(command string, args []string) string {
	base := func(p string) string { return filepath.Base(strings.ReplaceAll(p, `\`, "/")) }
	prog := strings.TrimSuffix(strings.ToLower(base(command)), ".exe")
	if !launchers[prog] {
		return base(command)
	}
	for i, a := range args {
		if strings.HasPrefix(a, "-") || launcherWords[a] || (strings.Contains(a, "=") && !strings.Contains(a, "==")) || isEnvName(a) {
			continue
		}
		if launchers[strings.ToLower(base(a))] {
			return CommandName(a, args[i+1:])
		}
		return packageName(a)
	}
	return base(command)
}

// packageName is the name of an npm or Python package, an image, or a
// script path.
func packageName(a string) string {
	a = strings.ReplaceAll(a, `\`, "/")
	if strings.HasPrefix(a, "@") { // @scope/name@version
		if i := strings.Index(a, "/"); i > 0 {
			a = a[i+1:]
		}
	}
	if i := strings.LastIndex(a, "@"); i > 0 && !strings.Contains(a[i:], "/") { // a version, not a scope inside a path
		a = a[:i]
	}
	if i := strings.Index(a, "=="); i > 0 {
		a = a[:i]
	}
	dir, file := filepath.Split(strings.TrimSuffix(a, "/"))
	name := strings.TrimSuffix(file, filepath.Ext(file))
	if i := strings.LastIndex(name, ":"); i > 0 && !strings.Contains(name[i:], "/") { // image:tag
		name = name[:i]
	}
	for genericScripts[name] && dir != "" {
		dir = strings.TrimSuffix(dir, "/")
		d := filepath.Base(dir)
		dir = filepath.Dir(dir)
		if d == "." || d == "/" || d == "" {
			break
		}
		if d == "build" || d == "dist" || d == "src" || d == "lib" || d == "bin" || d == "out" {
			if dir == "." || dir == "/" {
				break
			}
			continue
		}
		name = d
	}
	if name == "" {
		return a
	}
	return name
}

// isEnvName reports a variable name given to a flag such as docker's -e.
func isEnvName(a string) bool {
	for _, c := range a {
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return a != ""
}
