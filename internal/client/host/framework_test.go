package host

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/testutil"
)

// TestFrameworkCommand: node runs the host on the run's config, written
// in the arm's setting with the framework's defaults, in the run's working
// folder, with the framework's environment; an unprovisioned framework
// says so.
func TestFrameworkCommand(t *testing.T) {
	f := &Framework{Base: client.Info{Name: "x-sdk"}.At("1.0.0"), Host: npm.Host{Package: "x"}, Model: "m", Steps: 7,
		Env:     func(r *client.Run) map[string]string { return map[string]string{"X_BASE_URL": r.APIURL} },
		ArmList: []client.Arm{{Name: "default", Default: true}, {Name: "on", Settings: map[string]any{"on": true}}}}
	dir := t.TempDir()
	r := &client.Run{Dir: dir, APIURL: "http://127.0.0.1:9", Prompt: "p", Servers: []client.Server{{Name: "lab", Command: "/bin/lab"}}}
	r.Work = r.ClientDir()
	if _, err := f.Command(context.Background(), r); err == nil || !strings.Contains(err.Error(), "x-sdk@1.0.0 is not provisioned") {
		t.Fatalf("unprovisioned: %v", err)
	}
	f.node, f.script = "/usr/bin/node", "/cache/x-sdk@1.0.0/host-abc.mjs"
	for _, arm := range f.Arms() {
		r.Arm = arm
		cmd, cfg := testutil.Command(t, f, r, ConfigFile)
		if !slices.Equal(cmd.Args, []string{"/usr/bin/node", f.script, filepath.Join(r.ClientDir(), ConfigFile)}) || cmd.Dir != r.Work {
			t.Errorf("args %q dir %s", cmd.Args, cmd.Dir)
		}
		if !slices.Contains(cmd.Env, "X_BASE_URL=http://127.0.0.1:9") {
			t.Errorf("env %q", cmd.Env)
		}
		b := string(cfg)
		if strings.Contains(b, `"on": true`) != (arm.Name == "on") || !strings.Contains(b, `"model": "m"`) || !strings.Contains(b, `"maxSteps": 7`) {
			t.Errorf("arm %s: config %s", arm.Name, b)
		}
	}
	if f.Package() != "x" || f.Hosted().Package != "x" {
		t.Errorf("package %q", f.Package())
	}
}
