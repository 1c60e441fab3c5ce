package npm

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/version"
)

// A Host is a program of this project that embeds an npm package as an
// app does: an agent framework, driven by the host its getting-started
// documentation shows. Its folder, embedded in the framework's adapter,
// holds the host's package.json, which depends on Package at the pinned
// version and on what the host uses beside it, each at an exact version;
// the package-lock.json that locks them; and the Script.
type Host struct {
	// Client names the installs' folders, as in ai-sdk@7.0.185.
	Client string
	// Package is the package whose releases are the client's versions,
	// as in ai.
	Package string
	// Files holds package.json, package-lock.json and Script.
	Files fs.FS
	// Script is the host program's file, as in host.mjs.
	Script string
	// Dir is the folder of Files in the repository, for the test that
	// writes its lock.
	Dir string
}

// Pin is the version of Package the host's package.json names.
func (h Host) Pin() (string, error) {
	deps, err := h.deps()
	if err != nil {
		return "", err
	}
	return deps[h.Package], nil
}

// deps are the host's dependencies, each at an exact version, Package
// among them.
func (h Host) deps() (map[string]string, error) {
	b, err := fs.ReadFile(h.Files, "package.json")
	if err != nil {
		return nil, fmt.Errorf("the %s host: %w", h.Client, err)
	}
	var pj struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	if err := json.Unmarshal(b, &pj); err != nil {
		return nil, fmt.Errorf("the %s host's package.json: %w", h.Client, err)
	}
	for name, v := range pj.Dependencies {
		if !version.Valid(v) {
			return nil, fmt.Errorf("the %s host's package.json: %s is %q, want an exact version", h.Client, name, v)
		}
	}
	if pj.Dependencies[h.Package] == "" {
		return nil, fmt.Errorf("the %s host's package.json does not depend on %s", h.Client, h.Package)
	}
	return pj.Dependencies, nil
}

// Check reports what is wrong with the host's files: a package.json
// without exact versions or without Package, a lock whose root does not
// depend on exactly what package.json names, a fetched package without a
// sha512 integrity hash, or no Script.
func (h Host) Check() error {
	deps, err := h.deps()
	if err != nil {
		return err
	}
	if _, err := fs.Stat(h.Files, h.Script); err != nil {
		return fmt.Errorf("the %s host: %w", h.Client, err)
	}
	b, err := fs.ReadFile(h.Files, "package-lock.json")
	if err != nil {
		return fmt.Errorf("the %s host: %w", h.Client, err)
	}
	l, err := parseLock(b)
	if err != nil {
		return err
	}
	if root := l.Packages[""].Dependencies; !maps.Equal(root, deps) {
		return fmt.Errorf("the %s host's lock: its root depends on %v, package.json on %v", h.Client, root, deps)
	}
	for name, v := range deps {
		if got := l.Packages["node_modules/"+name].Version; got != v {
			return fmt.Errorf("the %s host's lock: it locks %s at %q, package.json names %s", h.Client, name, got, v)
		}
	}
	return l.checkIntegrity()
}

// MakeLock resolves the host's package.json with npm, without installing
// it or running any script, and returns the lockfile npm writes.
func (h Host) MakeLock(ctx context.Context) ([]byte, error) {
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, ErrNoNPM
	}
	pj, err := fs.ReadFile(h.Files, "package.json")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "instrlab-lock-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "package.json"), pj, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, npm, "install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("npm install --package-lock-only for the %s host: %w\n%s", h.Client, err, lastLines(out.String(), 10))
	}
	return os.ReadFile(filepath.Join(dir, "package-lock.json"))
}

// Ensure installs the host with Package at v, unless it is installed
// already, under the cache's folder Client@v, and returns node (found on
// PATH) and the host's script there. The pinned version installs from the
// host's lock; another (a sweep over releases) from its package.json with
// Package moved to v, as npm resolves it, which progress says. No install
// script runs either way. The script is written beside node_modules under
// a name of its content's hash, so that a changed host never runs an
// older one's code.
func (h Host) Ensure(ctx context.Context, v string, progress io.Writer) (node, script string, err error) {
	node, err = exec.LookPath("node")
	if err != nil {
		return "", "", fmt.Errorf("%s@%s runs on Node.js: %w", h.Client, v, err)
	}
	deps, err := h.deps()
	if err != nil {
		return "", "", err
	}
	code, err := fs.ReadFile(h.Files, h.Script)
	if err != nil {
		return "", "", fmt.Errorf("the %s host: %w", h.Client, err)
	}
	root, err := Root()
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(root, h.Client+"@"+v)
	s := setup{}
	pinned := deps[h.Package] == v
	if pinned {
		if s.lock, err = fs.ReadFile(h.Files, "package-lock.json"); err != nil {
			return "", "", fmt.Errorf("the %s host: %w", h.Client, err)
		}
	}
	deps[h.Package] = v
	s.prepare = func(dir string) ([]string, string, error) {
		pj, _ := json.Marshal(map[string]any{"private": true, "dependencies": deps})
		files := map[string][]byte{"package.json": pj}
		how := "the host's committed lock, no install script"
		if pinned {
			files["package-lock.json"] = s.lock
		} else {
			how = "no lock for this version: npm resolves the host's dependencies with it, no install script"
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				return nil, "", err
			}
		}
		return []string{"install", "--prefix", dir, "--ignore-scripts", "--no-save", "--no-audit", "--no-fund", "--loglevel=error"}, how, nil
	}
	done := func(dir string) bool { return Installed(dir, h.Package) == v }
	if err := install(ctx, dir, h.Package, v, progress, done, s); err != nil {
		return "", "", err
	}
	sum := sha256.Sum256(code)
	script = filepath.Join(dir, strings.TrimSuffix(h.Script, filepath.Ext(h.Script))+"-"+hex.EncodeToString(sum[:6])+filepath.Ext(h.Script))
	if b, err := os.ReadFile(script); err == nil && bytes.Equal(b, code) {
		return node, script, nil
	}
	// Written whole under another name, then renamed: two runs that start
	// at once never run half a script.
	tmp, err := os.CreateTemp(dir, ".host-*")
	if err != nil {
		return "", "", fmt.Errorf("writing the %s host: %w", h.Client, err)
	}
	_, werr := tmp.Write(code)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), script)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", "", fmt.Errorf("writing the %s host: %w", h.Client, werr)
	}
	return node, script, nil
}
