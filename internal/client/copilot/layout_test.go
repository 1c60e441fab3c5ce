package copilot

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestFlagsKnownToVersion checks the options a run passes against the ones
// each installed version defines (testdata/options, made by
// testdata/options.sh from the installs): every option flags gives a
// version is one it knows, and --disable-client-telemetry, which 1.0.92
// exits 1 on, is given exactly to the versions that define it. 0.0.409,
// below Floor, lacks --output-format.
func TestFlagsKnownToVersion(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "options", "*.txt"))
	if err != nil || len(files) < 10 {
		t.Fatalf("option lists: %v, %v", files, err)
	}
	for _, f := range files {
		v := strings.TrimSuffix(filepath.Base(f), ".txt")
		known := readLines(t, f)
		if Floor.Check(v) != nil {
			if slices.Contains(known, "--output-format") {
				t.Errorf("%s is below the floor %s, yet defines --output-format", v, Floor.Min)
			}
			continue
		}
		args := flags(v, "/logs")
		for _, a := range args {
			if strings.HasPrefix(a, "--") && !slices.Contains(known, a) {
				t.Errorf("%s: a run passes %s, which the version does not define (it defines %q)", v, a, known)
			}
		}
		if got, want := slices.Contains(args, "--disable-client-telemetry"), slices.Contains(known, "--disable-client-telemetry"); got != want {
			t.Errorf("%s: passes --disable-client-telemetry %v, defines it %v", v, got, want)
		}
	}
	if !slices.Contains(flags("not-a-version", "/logs"), "--disable-client-telemetry") {
		t.Error("a version that is not a semantic version should get the pin's options")
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// TestFindUnpacked finds each installed version's unpacked package where
// its executable put it (testdata/unpacked, laid out by
// testdata/unpacked.sh from the installs), by the entry its version
// starts from.
func TestFindUnpacked(t *testing.T) {
	want := map[string]string{
		"0.0.409": ".copilot/pkg",
		"1.0.11":  ".cache/copilot/pkg", "1.0.43": ".cache/copilot/pkg", "1.0.59": ".cache/copilot/pkg", "1.0.75": ".cache/copilot/pkg",
		"1.0.83": "pkg", "1.0.87": "pkg", "1.0.89": "pkg", "1.0.92": "pkg", "1.0.102": "pkg",
	}
	got := map[string]string{}
	dirs, _ := filepath.Glob(filepath.Join("testdata", "unpacked", "*"))
	for _, dir := range dirs {
		v := filepath.Base(dir)
		root, err := findUnpacked(dir, "linux-x64", v)
		if err != nil {
			t.Errorf("%s: %v", v, err)
		}
		got[v] = root
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("roots mismatch (-want +got):\n%s", diff)
	}
	// 1.0.89 has no cli-main.js: under 1.0.92's name it is not unpacked.
	if _, err := findUnpacked(filepath.Join("testdata", "unpacked", "1.0.89"), "linux-x64", "1.0.89"); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	if err := os.MkdirAll(filepath.Join(tmp, "pkg", "linux-x64", "1.0.92"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(tmp, "pkg", "linux-x64", "1.0.92", "index.js"), nil, 0o644)
	if _, err := findUnpacked(tmp, "linux-x64", "1.0.92"); !errors.Is(err, ErrNotUnpacked) || !strings.Contains(err.Error(), "cli-main.js") {
		t.Errorf("1.0.92 without cli-main.js: %v, want ErrNotUnpacked naming cli-main.js", err)
	}
}

// TestPkgEnv: a run of a version unpacked under COPILOT_PKG_CACHE_HOME
// gets that variable; one unpacked under the home gets a link in its own
// HOME to the shared copy, and the executable then finds its entry there.
func TestPkgEnv(t *testing.T) {
	cache, _ := filepath.Abs(filepath.Join("testdata", "unpacked", "1.0.11"))
	home := t.TempDir()
	env, err := pkgEnv(home, cache, ".cache/copilot/pkg")
	if err != nil || env != nil {
		t.Fatalf("pkgEnv = %v, %v; want no variables", env, err)
	}
	if _, err := os.Stat(filepath.Join(home, ".cache", "copilot", "pkg", "linux-x64", "1.0.11", "index.js")); err != nil {
		t.Errorf("the run's HOME does not reach the unpacked package: %v", err)
	}
	if _, err := pkgEnv(home, cache, ".cache/copilot/pkg"); err != nil {
		t.Errorf("a second run in the same HOME: %v", err)
	}
	env, err = pkgEnv(home, "/cache", "pkg")
	if diff := cmp.Diff(map[string]string{"COPILOT_PKG_CACHE_HOME": "/cache"}, env); diff != "" || err != nil {
		t.Errorf("pkgEnv mismatch (-want +got):\n%s%v", diff, err)
	}
}

// TestNodeScript: a release npm serves without its executable runs its
// package's index.js on a node as new as its loader asks (22 for 0.0.380,
// 24 for 1.0.10); with an older node, or a package that holds only its
// loader (1.0.77's), the reason says so.
func TestNodeScript(t *testing.T) {
	pkg := func(v string) string { return filepath.Join("testdata", "packages", v) }
	for _, tc := range []struct {
		pkg, node, want string
	}{
		{pkg("0.0.380"), "v22.12.0", ""},
		{pkg("0.0.380"), "v20.20.2", "its package runs on Node.js 22 or newer (its npm-loader.js); "},
		{pkg("1.0.10"), "v22.12.0", "its package runs on Node.js 24 or newer (its npm-loader.js); "},
		{pkg("1.0.10"), "v24.11.1", ""},
		{pkg("1.0.77"), "v24.11.1", "holds no index.js"},
	} {
		_, bin := testutil.FakeHelp(t, "node", tc.node)
		t.Setenv("PATH", bin)
		node, index, err := nodeScript(context.Background(), tc.pkg, "9.9.9", "copilot-linux-x64")
		if tc.want == "" {
			if err != nil || node != filepath.Join(bin, "node") || index != filepath.Join(tc.pkg, "index.js") {
				t.Errorf("%s on node %s: %q %q %v", tc.pkg, tc.node, node, index, err)
			}
			continue
		}
		if !errors.Is(err, ErrNoExecutable) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "no @github/copilot-linux-x64@9.9.9") {
			t.Errorf("%s on node %s: %v, want ErrNoExecutable with %q", tc.pkg, tc.node, err, tc.want)
		}
	}
}

func TestNodeMajor(t *testing.T) {
	for in, want := range map[string]int{"v20.20.2\n": 20, "v22.0.0": 22, "22.1.0": 0, "v": 0, "": 0, "vx.1": 0} {
		if got := nodeMajor([]byte(in)); got != want {
			t.Errorf("nodeMajor(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestRefusedBelowFloor: a version before 0.0.422 is refused before npm.
func TestRefusedBelowFloor(t *testing.T) {
	testutil.RefusedBelowFloor(t, New("0.0.409").(*Copilot), "0.0.409", Floor.Min,
		"copilot@0.0.409 cannot be driven: versions before 0.0.422 have no --output-format json")
}

var _ interface{ Supports(string) error } = (*Copilot)(nil)
var _ client.Client = (*Copilot)(nil)
