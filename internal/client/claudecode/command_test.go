package claudecode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/testutil"
)

func TestCommandIsolatesTheRun(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-users-own")
	t.Setenv("CLAUDE_CONFIG_DIR", "/users/own")
	dir := t.TempDir()
	r := &client.Run{Dir: dir, Home: dir + "/home", Tmp: dir + "/tmp", Work: dir + "/work",
		APIURL: "http://127.0.0.1:1234", APIKey: "sk-dummy", Prompt: "P", Model: "opus", MaxTurns: 3,
		Env: map[string]string{"CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH": "2048"}, Flags: []string{"--allowedTools", "Bash(sleep:*)"},
		Servers: []client.Server{{Name: "lab", Command: "/bin/instrlab", Args: []string{"serve", "lab", "-instr", "ascii:1000"}}}}
	c := &Claude{Base: Info.At("9.9.9"), bin: "/opt/claude"}
	cmd, err := c.Command(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	wantArgs := []string{"/opt/claude", "-p", "P", "--output-format", "stream-json", "--verbose", "--max-turns", "3",
		"--settings", `{"disableAllHooks": true}`, "--strict-mcp-config", "--mcp-config", dir + "/client/mcp.json",
		"--debug-file", dir + "/client/debug.log", "--model", "opus", "--allowedTools", "Bash(sleep:*)"}
	if diff := cmp.Diff(wantArgs, cmd.Args); diff != "" {
		t.Errorf("args mismatch (-want +got):\n%s", diff)
	}
	wantEnv := []string{"ANTHROPIC_API_KEY=sk-dummy", "ANTHROPIC_BASE_URL=http://127.0.0.1:1234",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH=2048", "DISABLE_TELEMETRY=1",
		"HOME=" + dir + "/home", "LANG=C.UTF-8", "PATH=/usr/local/bin:/usr/bin:/bin", "TERM=dumb", "TMPDIR=" + dir + "/tmp"}
	if diff := cmp.Diff(wantEnv, cmd.Env); diff != "" {
		t.Errorf("env mismatch (-want +got):\n%s", diff)
	}
	if cmd.Dir != r.Work {
		t.Errorf("dir %q, want %q", cmd.Dir, r.Work)
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "client", "mcp.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "mcpServers": {
    "lab": {
      "type": "stdio",
      "command": "/bin/instrlab",
      "args": [
        "serve",
        "lab",
        "-instr",
        "ascii:1000"
      ]
    }
  }
}
`
	if diff := cmp.Diff(want, string(cfg)); diff != "" {
		t.Errorf("mcp.json mismatch (-want +got):\n%s", diff)
	}
}

// fakeNPM puts an npm on PATH that runs script, and points the user cache
// dir at a temporary directory.
func fakeNPM(t *testing.T, script string) {
	t.Helper()
	bin := t.TempDir()
	if script != "" {
		if err := os.WriteFile(filepath.Join(bin, "npm"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	path := bin + ":/usr/bin:/bin"
	if script == "" {
		path = bin
	}
	t.Setenv("PATH", path)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
}

func TestProvisionWithoutNPM(t *testing.T) {
	fakeNPM(t, "")
	err := New("1.2.3").Provision(context.Background(), new(strings.Builder))
	if !errors.Is(err, ErrNoNPM) {
		t.Errorf("Provision = %v, want ErrNoNPM", err)
	}
}

func TestProvisionUnknownVersion(t *testing.T) {
	fakeNPM(t, "echo 'npm error code ETARGET' >&2; echo 'npm error notarget No matching version found for @anthropic-ai/claude-code@0.0.0-nope.' >&2; exit 1\n")
	err := New("0.0.0-nope").Provision(context.Background(), new(strings.Builder))
	if !errors.Is(err, ErrNoVersion) {
		t.Errorf("Provision = %v, want ErrNoVersion", err)
	}
}

// TestProvisionInstallsOnceAndReuses installs with an npm that writes a
// fake platform binary (no postinstall link), then provisions again
// without npm.
func TestProvisionInstallsOnceAndReuses(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the fake npm writes the linux-x64 package")
	}
	fakeNPM(t, `prefix=$3
pkg=$prefix/node_modules/@anthropic-ai/claude-code-linux-x64
mkdir -p "$pkg"
printf '#!/bin/sh\n[ "$1" = --help ] && { echo help >> "%s/help-calls"; echo "  --mcp-config  --output-format --verbose --settings --strict-mcp-config --debug-file"; exit 0; }\necho "1.2.3 (Claude Code)"\n' "$prefix" > "$pkg/claude"
chmod +x "$pkg/claude"
echo installed >> "$prefix/npm-calls"
`)
	var progress strings.Builder
	c := New("1.2.3").(*Claude)
	if err := c.Provision(context.Background(), &progress); err != nil {
		t.Fatal(err)
	}
	dir, _ := CacheDir("1.2.3")
	if want := filepath.Join(dir, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude"); c.Binary() != want {
		t.Errorf("binary %q, want %q", c.Binary(), want)
	}
	if !strings.Contains(progress.String(), "installing @anthropic-ai/claude-code@1.2.3") {
		t.Errorf("progress %q", progress.String())
	}
	c2 := New("1.2.3").(*Claude)
	if err := c2.Provision(context.Background(), new(strings.Builder)); err != nil {
		t.Fatal(err)
	}
	calls, _ := os.ReadFile(filepath.Join(dir, "npm-calls"))
	if string(calls) != "installed\n" {
		t.Errorf("npm ran %q times, want once", calls)
	}
	// The second provision read the options the first saved: the client
	// is not started again before the runs.
	if helps, _ := os.ReadFile(filepath.Join(dir, "help-calls")); string(helps) != "help\n" {
		t.Errorf("--help ran %q, want once", helps)
	}
	if !c2.has("--debug-file") || c2.has("--no-such-flag") {
		t.Errorf("the saved options were not read: %v", c2.flags)
	}
}

// TestOlderVersionsGetTheFlagsTheyHave provisions versions whose --help
// lacks the optional flags, or a required one: the first runs without
// them, the second is refused with the reason.
func TestOlderVersionsGetTheFlagsTheyHave(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the fake npm writes the linux-x64 package")
	}
	fakeNPM(t, `prefix=$3
for a; do spec=$a; done
v=${spec##*@}
pkg=$prefix/node_modules/@anthropic-ai/claude-code-linux-x64
mkdir -p "$pkg"
case $v in
1.0.60) help="--mcp-config --output-format --verbose --strict-mcp-config" ;;
*) help="--output-format --verbose" ;;
esac
printf '#!/bin/sh\n[ "$1" = --help ] && { echo "%s"; exit 0; }\necho "%s (Claude Code)"\n' "$help" "$v" > "$pkg/claude"
chmod +x "$pkg/claude"
`)
	c := New("1.0.60").(*Claude)
	if err := c.Provision(context.Background(), new(strings.Builder)); err != nil {
		t.Fatal(err)
	}
	r := &client.Run{Dir: t.TempDir(), Work: t.TempDir(), Prompt: "hi", Servers: []client.Server{{Name: "lab", Command: "lab"}}}
	cmd, err := c.Command(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Join(cmd.Args, " ")
	for _, absent := range []string{"--settings", "--debug-file"} {
		if strings.Contains(args, absent) {
			t.Errorf("1.0.60 has no %s, but the command passes it: %s", absent, args)
		}
	}
	for _, present := range []string{"--strict-mcp-config", "--mcp-config", "--max-turns 1"} {
		if !strings.Contains(args, present) {
			t.Errorf("command lacks %s: %s", present, args)
		}
	}
	err = New("0.2.9").Provision(context.Background(), new(strings.Builder))
	if err == nil || !strings.Contains(err.Error(), "lists no --mcp-config") {
		t.Errorf("a version without --mcp-config: %v, want it refused", err)
	}
}

func TestMCPConfigTwoServers(t *testing.T) {
	b, err := MCPConfig(testutil.TwoServers())
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
	if _, err := MCPConfig(append(testutil.TwoServers(), testutil.TwoServers()[0])); err == nil {
		t.Error("two servers named zeta: no error")
	}
}
