package atlas

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/version"
)

// ErrNoMatch reports a version range that selects no published version.
var ErrNoMatch = errors.New("no published version matches")

// A Selector picks versions out of a client's published list. Its text
// forms, after the client name and '@':
//
//	all             every published version
//	newest          the newest release (version.Newest; latest is its
//	                older spelling)
//	A..B            A to B inclusive, both published
//	1.2.3           one version
//	>=2.1.200 <2.2  a semver range (npm syntax: ^, ~, ||, hyphen ranges; see version.Range)
type Selector struct {
	text       string
	all        bool
	newest     bool
	from, to   string
	constraint *version.Range
}

// ParseSelector parses the part of "client@SELECTOR" after the '@'; an
// empty one is "all".
func ParseSelector(s string) (Selector, error) {
	sel := Selector{text: s}
	switch {
	case s == "" || s == "all":
		sel.all, sel.text = true, "all"
	case s == "newest" || s == "latest":
		sel.newest = true
	case strings.Contains(s, ".."):
		from, to, _ := strings.Cut(s, "..")
		if !version.Strict(from) {
			return Selector{}, fmt.Errorf("version range %q: %q is not a version", s, from)
		}
		if !version.Strict(to) {
			return Selector{}, fmt.Errorf("version range %q: %q is not a version", s, to)
		}
		sel.from, sel.to = from, to
	default:
		if version.Strict(s) {
			sel.from, sel.to = s, s
			break
		}
		c, err := version.ParseRange(s)
		if err != nil {
			return Selector{}, fmt.Errorf("version range %q: want all, newest, A..B, a version or a semver range: %v", s, err)
		}
		sel.constraint = &c
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
		if version.Prerelease(v) == "" {
			releases = append(releases, v)
		}
	}
	var out []string
	switch {
	case s.all:
		out = releases
	case s.newest:
		if n := version.Newest(vs); n != "" {
			out = []string{n}
		}
	case s.constraint != nil:
		for _, v := range releases {
			if s.constraint.Match(v) {
				out = append(out, v)
			}
		}
	default:
		for _, end := range []string{s.from, s.to} {
			if !slices.Contains(vs, end) {
				return nil, fmt.Errorf("%s: %w: npm does not serve %s (nearest: %s)", s.text, ErrNoMatch, end, nearest(vs, end))
			}
		}
		if version.Compare(s.from, s.to) > 0 {
			return nil, fmt.Errorf("version range %q: %s is newer than %s", s.text, s.from, s.to)
		}
		for _, v := range vs {
			if v == s.from || v == s.to || version.Compare(v, s.from) > 0 && version.Compare(v, s.to) < 0 && version.Prerelease(v) == "" {
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
func Sort(versions []string) []string { return version.Sort(versions) }

// nearest names the published versions just below and above v.
func nearest(sorted []string, v string) string {
	if !version.Valid(v) {
		return "none"
	}
	i := sort.Search(len(sorted), func(i int) bool { return version.Compare(sorted[i], v) >= 0 })
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
