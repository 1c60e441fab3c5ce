package profiles

import (
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
)

//go:embed data/*.json
var data embed.FS

// Builtin returns the profiles shipped with instrlab, ordered by client and
// version.
func Builtin() ([]Profile, error) {
	files, err := fs.Glob(data, "data/*.json")
	if err != nil {
		return nil, err
	}
	var ps []Profile
	for _, f := range files {
		b, err := data.ReadFile(f)
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

// ReadFile reads a profile from a file, such as one "instrlab run" wrote.
func ReadFile(name string) (Profile, error) {
	b, err := os.ReadFile(name)
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
// profile file. No names selects every built-in profile.
func Select(builtin []Profile, names []string) ([]Profile, error) {
	if len(names) == 0 {
		return builtin, nil
	}
	var out []Profile
	for _, n := range names {
		if strings.HasSuffix(n, ".json") {
			p, err := ReadFile(n)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
			continue
		}
		var found *Profile
		for i, p := range builtin {
			if p.ID() == n || p.Client == n {
				found = &builtin[i] // builtin is sorted: the last match is the newest
			}
		}
		if found == nil {
			return nil, fmt.Errorf("no profile %q (have %s)", n, ids(builtin))
		}
		out = append(out, *found)
	}
	return out, nil
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
