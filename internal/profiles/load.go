package profiles

import (
	"cmp"
	"context"
	"embed"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/cli"
)

//go:embed data/atlas/ranges.json
var data embed.FS

// ParseFiles parses every profile in fsys's root (each named
// client@version.json), validates it and orders them by client and
// version: the source form of the built-in profiles, and what
// data/builtin.gob is made of. The error names the first file that fails.
func ParseFiles(fsys fs.FS) ([]Profile, error) {
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	ps := make([]Profile, 0, len(files))
	for _, f := range files {
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		p, err := Parse(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if want := p.ID() + ".json"; path.Base(f) != want {
			return nil, fmt.Errorf("%s: a profile for %s belongs in %s", f, p.ID(), want)
		}
		ps = append(ps, p)
	}
	sortProfiles(ps)
	return ps, nil
}

// MaxFile is the most ReadFile reads of a profile file: the largest
// built-in one is under 100 KB.
const MaxFile = 16 << 20

// ReadFile reads a profile from a file, such as one "instrlab report
// -profile-out" wrote: at most MaxFile bytes of it, giving up when ctx is
// done (a FIFO nobody writes).
func ReadFile(ctx context.Context, name string) (Profile, error) {
	b, err := cli.ReadFile(ctx, name, MaxFile)
	if err != nil {
		return Profile{}, fmt.Errorf("reading profile: %w", err)
	}
	p, err := Parse(b)
	if err != nil {
		return Profile{}, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// Select resolves names against the built-in profiles: an id
// (client@version), a client name (its newest version), or a path to a
// profile file. A version without a profile of its own takes the profile
// of a version the atlas saw behave alike (BuiltinRanges). No names
// selects every built-in profile.
func Select(ctx context.Context, builtin []Profile, names []string) ([]Profile, error) {
	var ranges []Ranges
	if needsRanges(builtin, names) {
		var err error
		if ranges, err = BuiltinRanges(); err != nil {
			return nil, err
		}
	}
	return selectIn(ctx, builtin, ranges, names)
}

// needsRanges reports whether a name asks for a version of a built-in
// client that has no profile of its own: only lookup's search of the
// atlas's ranges reads them.
func needsRanges(builtin []Profile, names []string) bool {
	for _, n := range names {
		client, version, _ := strings.Cut(n, "@")
		if strings.HasSuffix(n, ".json") || version == "" || version == "latest" {
			continue
		}
		if !slices.ContainsFunc(builtin, func(p Profile) bool { return p.Client == client && p.Version == version }) &&
			slices.ContainsFunc(builtin, func(p Profile) bool { return p.Client == client }) {
			return true
		}
	}
	return false
}

func selectIn(ctx context.Context, builtin []Profile, ranges []Ranges, names []string) ([]Profile, error) {
	if len(names) == 0 {
		return builtin, nil
	}
	var out []Profile
	for _, n := range names {
		if strings.HasSuffix(n, ".json") {
			p, err := ReadFile(ctx, n)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
			continue
		}
		p, err := lookup(builtin, ranges, n)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// lookup finds the profile name asks for: client, client@version, or
// client@version that the atlas puts in the range of a built-in version.
func lookup(builtin []Profile, ranges []Ranges, name string) (Profile, error) {
	client, version, _ := strings.Cut(name, "@")
	var have []Profile // builtin is sorted: the last is the newest
	for _, p := range builtin {
		if p.Client == client {
			have = append(have, p)
		}
	}
	if len(have) == 0 {
		return Profile{}, fmt.Errorf("no profile for client %q (built in: %s)", client, clientNames(builtin))
	}
	if version == "" || version == "latest" {
		return have[len(have)-1], nil
	}
	for _, p := range have {
		if p.Version == version {
			return p, nil
		}
	}
	i := slices.IndexFunc(ranges, func(r Ranges) bool { return r.Client == client })
	if i < 0 {
		return Profile{}, fmt.Errorf("no profile for %s: built in are %s, and the atlas has no timeline of %s to tell which behaves like %s", name, ids(have), client, version)
	}
	rs := ranges[i]
	r, err := rs.find(version)
	if err != nil {
		return Profile{}, fmt.Errorf("no profile for %s (built in are %s): %w", name, ids(have), err)
	}
	var best *Profile
	at := rs.index(version)
	for k, p := range have {
		j := rs.index(p.Version)
		if j < rs.index(r.From) || j > rs.index(r.To) {
			continue
		}
		if best == nil || abs(j-at) <= abs(rs.index(best.Version)-at) {
			best = &have[k]
		}
	}
	if best == nil {
		var where []string
		for _, p := range have {
			if pr, err := rs.find(p.Version); err == nil {
				where = append(where, p.Version+" in "+pr.From+" to "+pr.To)
			}
		}
		return Profile{}, fmt.Errorf("no profile for %s: the atlas (%s) puts it in the range %s, and no built-in profile is of a version in that range (%s); measure it with instrlab run -client %s and report -profile-out",
			name, rs.Source, r, strings.Join(where, ", "), name)
	}
	p := *best
	p.For = version
	p.ForNote = fmt.Sprintf("%s@%s is in the range %s to %s of the atlas (%s), where %s is: the atlas saw every property it reads (%s) hold over that range",
		client, version, r.From, r.To, rs.Source, p.Version, strings.Join(slices.Sorted(maps.Keys(r.Props)), ", "))
	return p, nil
}

func abs(n int) int { return max(n, -n) }

func clientNames(ps []Profile) string {
	var s []string
	for _, p := range ps {
		if !slices.Contains(s, p.Client) {
			s = append(s, p.Client)
		}
	}
	return strings.Join(s, ", ")
}

func ids(ps []Profile) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.ID())
	}
	return strings.Join(s, ", ")
}

func sortProfiles(ps []Profile) {
	slices.SortFunc(ps, func(a, b Profile) int {
		return cmp.Or(cmp.Compare(a.Client, b.Client), compareVersions(a.Version, b.Version))
	})
}

// compareVersions orders dotted versions numerically where they are
// numbers ("2.1.285" < "2.1.328" < "2.10.0").
func compareVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < min(len(as), len(bs)); i++ {
		x, y := as[i], bs[i]
		if len(x) != len(y) && isDigits(x) && isDigits(y) {
			return cmp.Compare(len(x), len(y))
		}
		if c := cmp.Compare(x, y); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(as), len(bs))
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// Pick is the built-in profiles a comma-separated list names (Select; all
// of them when list is ""), each followed by its variants (Expand): the
// views check shows, as -profile asks for them.
func Pick(ctx context.Context, list string) ([]Profile, error) {
	var names []string
	if list != "" {
		names = strings.Split(list, ",")
	}
	builtin, err := Builtin()
	if err != nil {
		return nil, fmt.Errorf("loading profiles: %w", err)
	}
	ps, err := Select(ctx, builtin, names)
	if err != nil {
		return nil, fmt.Errorf("-profile: %w", err)
	}
	return Expand(ps), nil
}

// PickLater is Pick, then WithModel, for a command that starts work
// before it needs the views: a list that names profiles, or a model, is
// read at once, so that a wrong name is an error before anything starts;
// the default, every built-in profile's views (which fails only in a
// broken build), is made meanwhile, its first run a few milliseconds of
// building the profiles the binary holds. The function returned waits for
// the views; it may be called any number of times, from any goroutine.
func PickLater(ctx context.Context, list, model string) (func() ([]Profile, error), error) {
	if list != "" || model != "" {
		views, err := Pick(ctx, list)
		if err == nil {
			views, err = WithModel(views, model)
		}
		return func() ([]Profile, error) { return views, err }, err
	}
	done := make(chan struct{})
	var views []Profile
	var err error
	go func() {
		defer close(done)
		views, err = Pick(ctx, "")
	}()
	return func() ([]Profile, error) { <-done; return views, err }, nil
}

// WithModel keeps of views (Pick's) those measured with model: each
// client version's view of that model, its arms' too; a client version
// measured with no such model is left out. "" keeps every view. A model
// no view was measured with is an error naming the models that were.
func WithModel(views []Profile, model string) ([]Profile, error) {
	if model == "" {
		return views, nil
	}
	var out []Profile
	var models []string
	for _, v := range views {
		if v.Model == model {
			out = append(out, v)
		}
		if v.Model != "" && !slices.Contains(models, v.Model) {
			models = append(models, v.Model)
		}
	}
	if len(out) == 0 {
		slices.Sort(models)
		return nil, fmt.Errorf("-model: no profile was measured with model %q (measured: %s)", model, strings.Join(models, ", "))
	}
	return out, nil
}
