package clients

import (
	"context"
	"fmt"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/version"
)

// The words a -client flag may give as a version: Pinned, the version
// instrlab pins (what a bare name means), and Newest, the newest release
// the client's registry publishes, resolved when the run starts
// (version.Newest). Newest alone, as All, stands for every client that
// pins a version.
const (
	Pinned = "pinned"
	Newest = "newest"
)

// A Resolution is what a NAME@newest stood for when it was resolved.
type Resolution struct {
	Spec, Version string
}

func (r Resolution) String() string {
	name, _, _ := strings.Cut(r.Spec, "@")
	return fmt.Sprintf("%s is %s@%s", r.Spec, name, r.Version)
}

// Resolve returns specs (-client values) with each NAME@newest, and
// Newest alone for every pinned client, replaced by NAME@VERSION, the
// newest release that list (Versions, or a fake registry in tests)
// gives, and NAME@pinned by NAME; with what each newest resolved to, in
// order. A client whose versions cannot be listed is an error naming it.
func Resolve(ctx context.Context, specs []string, list func(ctx context.Context, name string) ([]string, error)) ([]string, []Resolution, error) {
	var out []string
	var rs []Resolution
	for _, s := range specs {
		names := []string{}
		switch name, v, _ := strings.Cut(s, "@"); {
		case s == Newest:
			for _, c := range pinned() {
				names = append(names, c.Spec().Name)
			}
		case v == Newest:
			names = append(names, name)
		case v == Pinned:
			out = append(out, name)
			continue
		default:
			out = append(out, s)
			continue
		}
		for _, name := range names {
			if _, err := New(name); err != nil {
				return nil, nil, err
			}
			vs, err := list(ctx, name)
			if err != nil {
				return nil, nil, fmt.Errorf("%s@%s: %w", name, Newest, err)
			}
			n := version.Newest(vs)
			if n == "" {
				return nil, nil, fmt.Errorf("%s@%s: the registry lists %d versions and no release", name, Newest, len(vs))
			}
			out = append(out, name+"@"+n)
			rs = append(rs, Resolution{Spec: name + "@" + Newest, Version: n})
		}
	}
	return out, rs, nil
}

// pinned are the known clients that pin a version, at that version, in
// name order.
func pinned() []client.Client {
	var cs []client.Client
	for _, n := range Names() {
		if c, err := New(n); err == nil && c.Spec().Version != "" {
			cs = append(cs, c)
		}
	}
	return cs
}
