package clients

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

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
// order. The registry is asked for listAtOnce clients at a time (npm
// view starts a Node.js each time). A client whose versions cannot be
// listed is an error naming it, and stops the listings still running (a
// registry out of reach fails them all, each after npm's own retries).
func Resolve(ctx context.Context, specs []string, list func(ctx context.Context, name string) ([]string, error)) ([]string, []Resolution, error) {
	out := slices.Clone(specs)
	type want struct {
		at   int // where in out its specs go
		name string
	}
	var wants []want
	for i, s := range specs {
		switch name, v, _ := strings.Cut(s, "@"); {
		case s == Newest:
			for _, c := range pinned() {
				wants = append(wants, want{i, c.Spec().Name})
			}
		case v == Newest:
			if _, err := New(name); err != nil {
				return nil, nil, err
			}
			wants = append(wants, want{i, name})
		case v == Pinned:
			out[i] = name
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	got := make([]string, len(wants))
	errs := make([]error, len(wants))
	sem := make(chan struct{}, listAtOnce)
	var wg sync.WaitGroup
	for k, w := range wants {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			vs, err := list(ctx, w.name)
			switch n := version.Newest(vs); {
			case err != nil:
				errs[k] = fmt.Errorf("%s@%s: %w", w.name, Newest, err)
				cancel()
			case n == "":
				errs[k] = fmt.Errorf("%s@%s: the registry lists %d versions and no release", w.name, Newest, len(vs))
			default:
				got[k] = n
			}
		}()
	}
	wg.Wait()
	// The error that stopped the others, not theirs.
	if i := slices.IndexFunc(errs, func(err error) bool { return err != nil && !errors.Is(err, context.Canceled) }); i >= 0 {
		return nil, nil, errs[i]
	}
	var rs []Resolution
	resolved := map[int][]string{}
	for k, w := range wants {
		if errs[k] != nil {
			return nil, nil, errs[k]
		}
		resolved[w.at] = append(resolved[w.at], w.name+"@"+got[k])
		rs = append(rs, Resolution{Spec: w.name + "@" + Newest, Version: got[k]})
	}
	var final []string
	for i, s := range out {
		if r, ok := resolved[i]; ok {
			final = append(final, r...)
			continue
		}
		final = append(final, s)
	}
	return final, rs, nil
}

// listAtOnce is how many clients' versions Resolve asks for at once.
const listAtOnce = 4

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
