// Package reference writes the client reference (docs/reference/): a page
// per client, saying what each of its profiled versions does with each
// thing a server sends and, where the atlas swept its history, since which
// version; and a page per property across clients ("tool results: who
// gives the model what"). Everything on it is read from the built-in
// profiles and the committed atlases, never written by hand: the
// committed pages are what Pages returns, byte for byte (a test holds
// them).
package reference

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/untrusted"
	"github.com/instrlab/instrlab/internal/version"
	"github.com/instrlab/instrlab/schema"
)

// Source is what the reference is written from.
type Source struct {
	// Profiles are every version of every client (profiles.Builtin).
	Profiles []profiles.Profile
	// Atlases are the swept histories, each with its directory.
	Atlases []Atlas
	// Base is where the repository's files are as seen from the output
	// directory: a relative path ("../..") or an https URL; the profiles'
	// evidence and the atlases' runs are linked under it.
	Base string
	// Command is the command that writes the reference, printed on each
	// page.
	Command string
	// html links the pages as the site names them (pageName).
	html bool
}

// An Atlas is a swept history and its directory, relative to the
// repository's root ("atlas", "atlas/surface"), under which its runs lie.
type Atlas struct {
	Dir string
	*atlas.Atlas
}

// A client is one client's profiled versions, newest first, and its
// timelines in the atlases.
type client struct {
	id, name  string
	versions  []profiles.Profile
	timelines []timeline
}

type timeline struct {
	dir        string
	properties []string
	atlas.Timeline
}

func (c client) newest() profiles.Profile { return c.versions[0] }

// clients groups the profiles by client, in the order of their display
// names, each client's versions newest first.
func clients(src Source) []client {
	var out []client
	for _, p := range src.Profiles {
		i := slices.IndexFunc(out, func(c client) bool { return c.id == p.Client })
		if i < 0 {
			out = append(out, client{id: p.Client, name: p.Name})
			i = len(out) - 1
		}
		out[i].versions = append(out[i].versions, p)
	}
	for i := range out {
		slices.SortStableFunc(out[i].versions, func(a, b profiles.Profile) int { return -version.Compare(a.Version, b.Version) })
		for _, a := range src.Atlases {
			for _, t := range a.Timelines {
				if t.Client == out[i].id {
					out[i].timelines = append(out[i].timelines, timeline{dir: a.Dir, properties: a.Properties, Timeline: t})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b client) int { return cmp.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) })
	return out
}

// Pages returns every page of the reference by its path under the output
// directory: README.md, one page per property group, clients/ID.md, and
// the exports compat.json (browser-compat-data's shape) and presets.json
// (the flags generated servers adapt to).
func Pages(src Source) (map[string][]byte, error) {
	if len(src.Profiles) == 0 {
		return nil, errors.New("reference: no profiles to write it from")
	}
	cs := clients(src)
	pages := map[string][]byte{"README.md": index(src, cs)}
	for _, g := range groups {
		pages[g.file] = groupPage(src, g, cs)
	}
	for _, c := range cs {
		pages[clientFile(c.id)] = clientPage(src, c)
	}
	for name, v := range map[string]any{"compat.json": schema.Named(schema.Compat, CompatOf(src)), "presets.json": schema.Named(schema.Presets, PresetsOf(src))} {
		var b bytes.Buffer
		if err := untrusted.JSON(&b, v); err != nil {
			return nil, err
		}
		pages[name] = b.Bytes()
	}
	return pages, nil
}

// clientFile is a client's page under the output directory.
func clientFile(id string) string { return "clients/" + id + ".md" }

// Write writes the reference into dir, and removes the Markdown and JSON
// files of an earlier reference there that it no longer has (a client
// gone).
func Write(dir string, src Source) error {
	pages, err := Pages(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "clients"), 0o755); err != nil {
		return err
	}
	for _, sub := range []string{".", "clients"} {
		md, _ := filepath.Glob(filepath.Join(dir, sub, "*.md"))
		js, _ := filepath.Glob(filepath.Join(dir, sub, "*.json"))
		for _, f := range append(md, js...) {
			rel, _ := filepath.Rel(dir, f)
			if _, ok := pages[filepath.ToSlash(rel)]; !ok {
				if err := os.Remove(f); err != nil {
					return err
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(pages)) {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), pages[name], 0o644); err != nil {
			return fmt.Errorf("writing the reference: %w", err)
		}
	}
	return nil
}

// Command is the command that writes the reference into out from the
// atlases of dirs.
func Command(out string, dirs []string) string {
	return strings.Join(append([]string{"instrlab report -format reference -out", filepath.ToSlash(out)}, dirs...), " ")
}

// Generate writes the reference into out from the built-in profiles and
// the atlases of dirs (each holds an atlas.json, under the working
// directory: the repository's root). link, when set, is the
// https URL the repository's files are published under: evidence is
// linked there instead of relatively.
func Generate(ctx context.Context, out string, dirs []string, link string) error {
	if out == "" {
		return cli.UsageError{Msg: "report: -format reference needs -out (the reference is a directory)"}
	}
	src, err := load(ctx, out, dirs, link)
	if err != nil {
		return err
	}
	return Write(out, src)
}

// load is the source of a reference written into out: the built-in
// profiles, the atlases of dirs, and where the working directory's files
// (which the pages link) are from out.
func load(ctx context.Context, out string, dirs []string, link string) (Source, error) {
	ps, err := profiles.Builtin()
	if err != nil {
		return Source{}, err
	}
	src := Source{Profiles: ps, Base: link, Command: Command(out, dirs)}
	if link == "" {
		if src.Base, err = workingDirFrom(out); err != nil {
			return Source{}, err
		}
	}
	for _, d := range dirs {
		rel, err := fromWorkingDir(d, link)
		if err != nil {
			return Source{}, err
		}
		a, err := atlas.Read(ctx, evidence.SweepDir(d).Atlas())
		if err != nil {
			return Source{}, err
		}
		src.Atlases = append(src.Atlases, Atlas{Dir: filepath.ToSlash(rel), Atlas: a})
	}
	return src, nil
}

// workingDirFrom is the working directory (the repository's root) as a
// path relative to dir, with slashes: where a page written in dir finds
// the repository's files.
func workingDirFrom(dir string) (string, error) {
	wd, abs, err := absolute(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(abs, wd)
	return filepath.ToSlash(rel), err
}

// absolute is the working directory and p, both absolute.
func absolute(p string) (wd, abs string, err error) {
	if wd, err = filepath.Abs("."); err != nil {
		return "", "", err
	}
	abs, err = filepath.Abs(p)
	return wd, abs, err
}

// fromWorkingDir is path p relative to the working directory (the
// repository's root), from which the pages link its files; with link
// (the URL the working directory is published under) it must lie in it.
func fromWorkingDir(p, link string) (string, error) {
	wd, abs, err := absolute(p)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(wd, abs)
	if err != nil {
		return "", err
	}
	if link != "" && (rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))) {
		return "", fmt.Errorf("reference: %s is not under the working directory, which -link publishes (run it from the repository's root)", p)
	}
	return rel, nil
}
