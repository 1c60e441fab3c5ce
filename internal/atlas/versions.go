package atlas

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
)

// ErrNoMatch reports a version range that selects no published version.
var ErrNoMatch = errors.New("no published version matches")

// A Selector picks versions out of a client's published list. Its text
// forms, after the client name and '@':
//
//	all             every published version
//	latest          the newest release
//	A..B            A to B inclusive, both published
//	1.2.3           one version
//	>=2.1.200 <2.2  a semver range (npm syntax: ^, ~, ||, hyphen ranges)
type Selector struct {
	text       string
	all        bool
	latest     bool
	from, to   string
	constraint *semver.Constraints
}

// ParseSelector parses the part of "client@SELECTOR" after the '@'.
func ParseSelector(s string) (Selector, error) {
	sel := Selector{text: s}
	switch {
	case s == "" || s == "all":
		sel.all = true
	case s == "latest":
		sel.latest = true
	case strings.Contains(s, ".."):
		from, to, _ := strings.Cut(s, "..")
		if _, err := semver.StrictNewVersion(from); err != nil {
			return Selector{}, fmt.Errorf("version range %q: %q is not a version", s, from)
		}
		if _, err := semver.StrictNewVersion(to); err != nil {
			return Selector{}, fmt.Errorf("version range %q: %q is not a version", s, to)
		}
		sel.from, sel.to = from, to
	default:
		if _, err := semver.StrictNewVersion(s); err == nil {
			sel.from, sel.to = s, s
			break
		}
		c, err := semver.NewConstraint(s)
		if err != nil {
			return Selector{}, fmt.Errorf("version range %q: want all, latest, A..B, a version or a semver range: %v", s, err)
		}
		sel.constraint = c
	}
	return sel, nil
}

func (s Selector) String() string { return s.text }

// Select returns the published versions s picks, oldest first. published
// must be the client's whole list (any order); prereleases are left out
// unless named exactly. It fails with ErrNoMatch, naming the nearest
// published versions, when nothing matches, and when an endpoint of A..B
// or a single version is not published.
func (s Selector) Select(published []string) ([]string, error) {
	vs := Sort(published)
	var releases []string
	for _, v := range vs {
		if sv, err := semver.NewVersion(v); err == nil && sv.Prerelease() == "" {
			releases = append(releases, v)
		}
	}
	var out []string
	switch {
	case s.all:
		out = releases
	case s.latest:
		if len(releases) > 0 {
			out = releases[len(releases)-1:]
		}
	case s.constraint != nil:
		for _, v := range releases {
			if s.constraint.Check(semver.MustParse(v)) {
				out = append(out, v)
			}
		}
	default:
		for _, end := range []string{s.from, s.to} {
			if !slices.Contains(vs, end) {
				return nil, fmt.Errorf("%s: %w: npm does not serve %s (nearest: %s)", s.text, ErrNoMatch, end, nearest(vs, end))
			}
		}
		lo, hi := semver.MustParse(s.from), semver.MustParse(s.to)
		if lo.GreaterThan(hi) {
			return nil, fmt.Errorf("version range %q: %s is newer than %s", s.text, s.from, s.to)
		}
		for _, v := range vs {
			sv := semver.MustParse(v)
			if v == s.from || v == s.to || sv.GreaterThan(lo) && sv.LessThan(hi) && sv.Prerelease() == "" {
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: %w (published: %d versions, %s to %s)", s.text, ErrNoMatch, len(vs), first(vs), last(vs))
	}
	return out, nil
}

// Sort returns the versions that parse as semver, oldest first.
func Sort(versions []string) []string {
	type pv struct {
		s string
		v *semver.Version
	}
	var ps []pv
	for _, s := range versions {
		if v, err := semver.NewVersion(s); err == nil {
			ps = append(ps, pv{s, v})
		}
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].v.LessThan(ps[j].v) })
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.s
	}
	return out
}

// nearest names the published versions just below and above v.
func nearest(sorted []string, v string) string {
	sv, err := semver.NewVersion(v)
	if err != nil {
		return "none"
	}
	i := sort.Search(len(sorted), func(i int) bool { return !semver.MustParse(sorted[i]).LessThan(sv) })
	var near []string
	if i > 0 {
		near = append(near, sorted[i-1])
	}
	if i < len(sorted) {
		near = append(near, sorted[i])
	}
	if len(near) == 0 {
		return "none"
	}
	return strings.Join(near, ", ")
}

func first(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return l[0]
}

func last(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return l[len(l)-1]
}
