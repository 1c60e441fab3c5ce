package instrlab_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// never is the architecture as the edges that must never exist, in the
// manner of Go's own go/build/deps_test.go: no package matching a rule's
// from may depend, directly or through others, on a package matching its
// to. A pattern names packages as the go command does, a package of this
// module by its directory ("./lab") and any other by its import path
// ("html/template"): "p" is p alone, "p/..." is p and every package below
// it, and "p/*" every package below p but not p itself; "!p" takes p out
// of what the patterns before it name. docs/design.md lists the same
// rules; change both together.
var never = []struct{ from, to, why string }{
	// Presentation reads evidence: the command hands it the client lookup
	// (analyze.Clients), so that a table or a profile links no client.
	{"./internal/report/... ./internal/profiles/... ./internal/table ./internal/untrusted", "./internal/client/*",
		"presentation links no client adapter"},
	{"./internal/report/... ./internal/profiles/...", "./internal/matrix/runner",
		"presentation and profiles read what a run left; they never run one"},
	{"./internal/report/reference", "./internal/probe ./internal/budget ./internal/atlas/sweep",
		"the client reference is written from the profiles and the atlas's data, and probes, measures and sweeps nothing"},
	{"./internal/atlas/...", "./internal/client/*",
		"a sweep runs the clients the command makes (sweep.Sweep.NewClient)"},
	{"./internal/atlas/...", "./internal/budget ./internal/profiles",
		"a sweep measures budgets through the measurer the command gives it (sweep.Sweep.MeasureBudget); profiles' tests read the atlas"},
	{"./internal/atlas", "./internal/matrix/runner ./internal/atlas/sweep",
		"the atlas is data, read and written (timelines, pages, exports); sweeping it runs clients (atlas/sweep)"},

	// The experiment, by job: planning, then running, then analysis.
	{"./internal/matrix", "./internal/matrix/runner ./internal/matrix/analyze ./internal/client/*",
		"planning knows rows and clients' arms, not how a run goes or is read"},
	{"./internal/matrix/analyze", "./internal/matrix/runner ./internal/client/*",
		"analysis reads evidence; the client that reads its own files is passed in"},
	{"./internal/matrix/runner", "./internal/client/* ./internal/report/... ./internal/profiles/...",
		"the runner runs the clients it is given and writes evidence"},

	// The clients and the fakes know nothing of the experiment.
	{"./internal/client/...", "./internal/matrix/... ./internal/report/... ./internal/profiles/... ./internal/fakeapi",
		"a client adapter starts its client and reads its files"},
	{"./internal/fakeapi", "./internal/client/... ./internal/matrix/...",
		"the fake model APIs serve any client and know none"},

	// check predicts from profiles and a probe of the server.
	{"./internal/probe ./internal/profiles ./internal/profiles/assess/...", "./internal/matrix/... ./internal/client/... ./internal/fakeapi",
		"check runs no client"},

	// What the model loses is one scale that check and run both say
	// their losses in: it knows neither.
	{"./internal/loss", "./internal/...",
		"the scale of losses is a leaf: check's findings and run's verdicts both use it"},

	// The lab stands alone.
	{"./lab ./live", "./internal/... !./internal/labvocab ./cmd/...",
		"a server author's program links the lab or live and nothing of the experiment"},
	{"./internal/labvocab", "./internal/... ./lab ./live github.com/modelcontextprotocol/go-sdk/...",
		"the words the lab and the analysis share are a leaf: the lab links them and nothing else of instrlab's"},
	{"./internal/serve", "./internal/matrix/... ./internal/report ./internal/client/... ./internal/profiles/...",
		"serve is the lab's and the proxy's command line"},
	{"./cmd/instrlab-lab", "./internal/report ./internal/matrix/... ./internal/client/... ./internal/profiles/... ./internal/tokens html/template",
		"instrlab-lab links only the lab, so it starts as fast as a bare go-sdk server"},
}

const module = "github.com/instrlab/instrlab"

// TestNeverEdges checks every rule of never against the dependencies go
// list reports for every package of the module (tests excluded: a test may
// use a real client).
func TestNeverEdges(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	known := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := local(f[0])
		for _, d := range f[1:] {
			d = local(d)
			deps[pkg] = append(deps[pkg], d)
			known[d] = true
		}
		known[pkg] = true
	}
	if !slices.Contains(deps["./cmd/instrlab"], "./internal/report") {
		t.Fatalf("go list printed %d packages, without ./cmd/instrlab importing ./internal/report:\n%s", len(deps), out)
	}
	for _, r := range never {
		// A pattern that matches nothing (a package renamed) would make
		// its rule hold for nothing.
		for _, p := range append(strings.Fields(r.from), strings.Fields(r.to)...) {
			p = strings.TrimPrefix(p, "!")
			if !slices.ContainsFunc(keys(known), func(pkg string) bool { return match(p, pkg) }) {
				t.Errorf("rule %q: pattern %s matches no package", r.why, p)
			}
		}
		for pkg, ds := range deps {
			if !matchAny(r.from, pkg) {
				continue
			}
			for _, d := range ds {
				if matchAny(r.to, d) {
					t.Errorf("%s depends on %s: %s", pkg, d, r.why)
				}
			}
		}
	}
}

// local names a package of this module by its directory, as "./lab", and
// any other by its import path.
func local(path string) string {
	if rel, ok := strings.CutPrefix(path, module+"/"); ok {
		return "./" + rel
	}
	if path == module {
		return "."
	}
	return path
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// matchAny reports whether pkg is what patterns name: one of them names it
// and no "!" pattern takes it out.
func matchAny(patterns, pkg string) bool {
	in := false
	for _, p := range strings.Fields(patterns) {
		if out, ok := strings.CutPrefix(p, "!"); ok {
			if match(out, pkg) {
				return false
			}
			continue
		}
		in = in || match(p, pkg)
	}
	return in
}

// match reports whether pkg is what pattern p names (see never).
func match(p, pkg string) bool {
	switch {
	case strings.HasSuffix(p, "/..."):
		base := strings.TrimSuffix(p, "/...")
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	case strings.HasSuffix(p, "/*"):
		return strings.HasPrefix(pkg, strings.TrimSuffix(p, "*"))
	}
	return pkg == p
}

// TestMatch pins the patterns' meaning.
func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		p, pkg string
		want   bool
	}{
		{"./internal/client", "./internal/client", true},
		{"./internal/client", "./internal/client/codex", false},
		{"./internal/client/...", "./internal/client", true},
		{"./internal/client/...", "./internal/client/codex", true},
		{"./internal/client/...", "./internal/clients", false},
		{"./internal/client/*", "./internal/client", false},
		{"./internal/client/*", "./internal/client/codex", true},
		{"./internal/client/*", "./internal/client/clients", true},
		{"./internal/...", "internal/strconv", false},
		{"html/template", "html/template", true},
	} {
		if got := match(tc.p, tc.pkg); got != tc.want {
			t.Errorf("match(%q, %q) = %v, want %v", tc.p, tc.pkg, got, tc.want)
		}
	}
	for _, tc := range []struct {
		patterns, pkg string
		want          bool
	}{
		{"./internal/... !./internal/labvocab", "./internal/labvocab", false},
		{"./internal/... !./internal/labvocab", "./internal/surface", true},
		{"./internal/... !./internal/labvocab ./cmd/...", "./cmd/instrlab", true},
		{"!./internal/labvocab", "./internal/surface", false},
	} {
		if got := matchAny(tc.patterns, tc.pkg); got != tc.want {
			t.Errorf("matchAny(%q, %q) = %v, want %v", tc.patterns, tc.pkg, got, tc.want)
		}
	}
}
