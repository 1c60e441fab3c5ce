package kilo

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/opencode"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestCommand: the config names the key itself (this version rejects a
// config whose key is an {env:NAME} reference), and the environment turns
// off what would reach for outside hosts or install plugins.
func TestCommand(t *testing.T) {
	dir := t.TempDir()
	r := &client.Run{Dir: dir, Home: filepath.Join(dir, "home"), Work: t.TempDir(), APIURL: "http://127.0.0.1:5000", APIKey: "dummy-key",
		Servers: []client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab"}}}, Prompt: "hi"}
	if _, err := New("").Command(context.Background(), r); err == nil {
		t.Fatal("Command before Provision: no error")
	}
	k := &Kilo{Base: Info.At(DefaultVersion), bin: "/bin/kilo"}
	cmd, b := testutil.Command(t, k, r, ConfigFile)
	var cfg struct {
		Provider map[string]struct {
			Options struct{ APIKey, BaseURL string } `json:"options"`
		} `json:"provider"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if o := cfg.Provider[opencode.ProviderID].Options; o.APIKey != "dummy-key" || o.BaseURL != "http://127.0.0.1:5000/v1" {
		t.Errorf("provider options %+v", o)
	}
	for _, v := range []string{"KILO_DISABLE_DEFAULT_PLUGINS=1", "KILO_TELEMETRY_LEVEL=off", "KILO_DISABLE_MODELS_FETCH=1"} {
		if !slices.Contains(cmd.Env, v) {
			t.Errorf("environment lacks %s: %q", v, cmd.Env)
		}
	}
	if diff := cmp.Diff([]string{"/bin/kilo", "run", "--format", "json", "--print-logs", "--log-level", "DEBUG", "hi"}, cmd.Args); diff != "" {
		t.Errorf("args mismatch (-want +got):\n%s", diff)
	}
}

// TestObserveRealRun reads trimmed evidence of a real run (testdata/ROW,
// made by testdata/trim.sh from "instrlab run -client kilo@7.7.7"), whose
// log mixes opencode's two line styles.
func TestObserveRealRun(t *testing.T) {
	dir := testutil.RunDir(t, filepath.Join("testdata", "en-1000"),
		map[string]string{"stdout.txt": "client/stdout.txt", "stderr.txt": "client/stderr.txt"})
	o := (&Kilo{}).Observe(client.Evidence{Dir: dir, Servers: []string{"lab"}})
	if diff := cmp.Diff([]string{"no error in log", "BEGIN=PINTAIL-8601 END=PINTAIL-3421 LAST=798", ""}, []string{o.ServerStatus, o.Answer, o.ResultError}); diff != "" {
		t.Errorf("Observe mismatch (-want +got):\n%s", diff)
	}
	if len(o.Warnings) > 0 {
		t.Errorf("warnings: %v", o.Warnings)
	}
}

// FuzzParseLog runs opencode's log parser on Kilo's log, which adds a
// second line style ("WARN  2026-12-01T03:40:27 +415ms service=...").
func FuzzParseLog(f *testing.F) {
	testutil.Seed(f, filepath.Join("testdata", "en-1000", "stderr.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, w := opencode.ParseLog(strings.NewReader(string(data)), "stderr.txt")
		testutil.InFile(t, "stderr.txt", append(w, l.Problems...))
	})
}

func TestCommandTwoServers(t *testing.T) {
	dir := t.TempDir()
	r := &client.Run{Dir: dir, Home: filepath.Join(dir, "home"), Work: t.TempDir(), APIURL: "http://127.0.0.1:5000", APIKey: "dummy-key",
		Servers: testutil.TwoServers(), Prompt: "hi"}
	if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := (&Kilo{Base: Info.At(DefaultVersion), bin: "/bin/kilo"}).Command(context.Background(), r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(r.Work, ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
}

// TestProvisionFromTheCache: a prefix that holds only the platform package
// (as the adapter installs it) and one that holds @kilocode/cli with the
// platform package beside it (as it was installed before) both give the
// executable without npm.
func TestProvisionFromTheCache(t *testing.T) {
	t.Setenv("PATH", "") // no npm: only the cache can serve
	k := New("7.7.9").(*Kilo)
	plat := k.Package()
	if !strings.HasPrefix(plat, "@kilocode/cli-") {
		t.Fatalf("Package = %q, want a platform package of @kilocode/cli", plat)
	}
	for _, tc := range []struct {
		name  string
		files []string
	}{
		{"platform package", []string{"node_modules/" + plat + "/package.json", "node_modules/" + plat + "/bin/kilo"}},
		{"@kilocode/cli and its platform package", []string{"node_modules/@kilocode/cli/package.json", "node_modules/@kilocode/cli/bin/kilo",
			"node_modules/" + plat + "/package.json", "node_modules/" + plat + "/bin/kilo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			dir, err := os.UserCacheDir()
			if err != nil {
				t.Fatal(err)
			}
			prefix := filepath.Join(dir, "instrlab", "clients", "kilo@7.7.9")
			for _, f := range tc.files {
				p := filepath.Join(prefix, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				data := ""
				if filepath.Base(f) == "package.json" {
					data = `{"version":"7.7.9"}`
				}
				if err := os.WriteFile(p, []byte(data), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			k := New("7.7.9").(*Kilo)
			if err := k.Provision(context.Background(), io.Discard); err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(prefix, "node_modules", filepath.FromSlash(plat), "bin", "kilo"); k.bin != want {
				t.Errorf("executable %q, want %q", k.bin, want)
			}
		})
	}
}
