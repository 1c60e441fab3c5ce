package reference

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/atlas"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/profiles"
)

// Site writes the atlas site into out (instrlab report -format site):
// the atlas's own pages (atlas.Site) from the sweeps dirs of the first
// one's matrix, merged, and the client reference under out/reference as
// HTML (the pages Pages writes as Markdown, written as HTML in the
// report's page shell), from the built-in profiles and every dir's atlas (so that
// "atlas atlas/budgets atlas/results atlas/surface" gives the reference every history), the atlas's
// index linking it. link is as for atlas.SiteOptions and Generate, and
// display as atlas.SiteOptions.Display.
func Site(ctx context.Context, out string, dirs []string, link string, display func(client string) string) error {
	var same []string
	matrix := ""
	for _, d := range dirs {
		a, err := atlas.Read(ctx, evidence.SweepDir(d).Atlas())
		if err != nil {
			return err
		}
		if matrix == "" {
			matrix = a.Matrix
		}
		if a.Matrix == matrix {
			same = append(same, d)
		}
	}
	a, err := atlas.ReadSweeps(ctx, same, out)
	if err != nil {
		return err
	}
	src, err := load(ctx, filepath.Join(out, "reference"), dirs, link)
	if err != nil {
		return err
	}
	observed, err := observedProtocols(out, src.Profiles)
	if err != nil {
		return err
	}
	if err := a.Site(out, atlas.SiteOptions{Link: link, Reference: "reference/index.html", Display: display, Observed: observed}); err != nil {
		return err
	}
	src.html = true
	pages, err := Pages(src)
	if err != nil {
		return err
	}
	for name, b := range pages {
		p := filepath.Join(out, "reference", filepath.FromSlash(pageName(name, true)))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return fmt.Errorf("writing the site's reference: %w", err)
		}
	}
	return nil
}

// pageName is a page's file: as written (.md), or in the site, where
// README.md is index.html and every page .html.
func pageName(file string, html bool) string {
	if !html || !strings.HasSuffix(file, ".md") {
		return file
	}
	if file == "README.md" {
		return "index.html"
	}
	return strings.TrimSuffix(file, ".md") + ".html"
}

// observedProtocols gives, by client, the protocol facts of profiles ps
// (what each version was measured doing with what a server asks and
// announces), each with the profile's evidence excerpt as a path relative
// to out, for the site's capabilities.json.
func observedProtocols(out string, ps []profiles.Profile) (func(client string) []atlas.ObservedProtocol, error) {
	up, err := workingDirFrom(out)
	if err != nil {
		return nil, err
	}
	facts := func(fs []profiles.ProtocolFact) []atlas.ObservedFact {
		var o []atlas.ObservedFact
		for _, f := range fs {
			o = append(o, atlas.ObservedFact{Feature: f.Feature, Does: f.Does, Held: f.Held})
		}
		return o
	}
	by := map[string][]atlas.ObservedProtocol{}
	for _, p := range ps {
		if p.Protocol == nil {
			continue
		}
		o := atlas.ObservedProtocol{Version: p.Version, Runs: p.Protocol.Runs, Facts: facts(p.Protocol.Facts), Modern: facts(p.Protocol.Modern),
			HTTP: facts(p.Protocol.HTTP), ModernHTTP: facts(p.Protocol.ModernHTTP), Alone: facts(p.Protocol.Alone)}
		for _, e := range p.Evidence {
			if evidenceLink(e.Ref) != "" && !strings.Contains(e.Ref, "://") {
				o.Evidence = path.Join(up, e.Ref)
				break
			}
		}
		by[p.Client] = append(by[p.Client], o)
	}
	return func(client string) []atlas.ObservedProtocol { return by[client] }, nil
}
