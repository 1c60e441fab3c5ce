package clients

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/testutil"
)

// The clients below have no adapter: each test reproduces why (see
// docs/clients.md, "Clients that cannot run offline") and fails the day
// the reason no longer holds.

// modelPaths are the paths of the model APIs instrlab fakes (Anthropic,
// OpenAI Chat and Responses, Gemini): a client that calls one of them
// itself could be driven against a fake.
var modelPaths = []string{"/v1/messages", "/chat/completions", "/responses", ":generateContent", ":streamGenerateContent"}

func callsModel(calls []string) string {
	for _, c := range calls {
		for _, p := range modelPaths {
			if strings.Contains(c, p) {
				return c
			}
		}
	}
	return ""
}

// TestE2EAmpNeedsItsServer reproduces why Amp has no row: Amp's CLI
// (@sourcegraph/amp, now @ampcode/cli) asks Amp's service who the user is
// (getUserInfo) before anything else, and runs its agent on that service
// (a thread actor) rather than calling a model API itself. Against a local
// stand-in for the service with a dummy key it exits 1 on that first
// call, having called no model API. It fails the day Amp runs without its
// service, or calls a model API of its own.
func TestE2EAmpNeedsItsServer(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to install Amp from npm and run it against a local stand-in for its service")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the executable this test runs is @ampcode/cli-linux-x64's")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// The newest @ampcode/cli npm serves (0.0.1790712063-gb89205) has no
	// platform package there; this is the newest whose executable it serves.
	bin, err := npm.EnsureFile(ctx, npm.Package{Client: "amp", Version: "0.0.1790142911-g7618fb", Name: "@sourcegraph/amp"}, io.Discard,
		"binary", "node_modules/@ampcode/cli-linux-x64/amp")
	if err != nil {
		t.Fatal(err)
	}
	b := testutil.StartBackend(t)
	out, err := testutil.RunBare(t, "", []string{"AMP_URL=" + b.URL + "/", "AMP_API_KEY=dummy-key"},
		bin, "--no-ide", "--no-notifications", "-x", "Reply with one word.", "--stream-json")
	calls := b.Calls()
	if err == nil {
		t.Fatalf("amp -x exited 0 without its service: it may now run offline; try an adapter and update docs/clients.md\n%s\ncalls: %q", out, calls)
	}
	if c := callsModel(calls); c != "" {
		t.Errorf("amp called a model API itself (%s): it may now be driven against a fake; calls: %q", c, calls)
	}
	if !strings.Contains(out, "getUserInfo failed: 404") || len(calls) == 0 || calls[0] != "POST /api/internal" {
		t.Errorf("amp failed, but not on its service's getUserInfo:\n%s\ncalls: %q", out, calls)
	}
}

// TestE2EAuggieNeedsItsBackend reproduces why Augment's Auggie has no row:
// it speaks only Augment's own service, which calls the model. With a
// dummy session naming a local stand-in as its tenant, a headless run
// reaches the service's chat endpoint (/chat-stream, the conversation,
// tools and rules as Augment's request, not a model API's) and exits 1
// when that fails. It fails the day Auggie calls a model API itself, or
// succeeds without its service.
func TestE2EAuggieNeedsItsBackend(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to install Auggie from npm and run it against a local stand-in for its service")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: "auggie", Version: "0.36.0", Name: "@augmentcode/auggie"}, io.Discard,
		"node_modules/@augmentcode/auggie/augment.mjs")
	if err != nil {
		t.Fatal(err)
	}
	b := testutil.StartBackend(t)
	session := `{"accessToken":"dummy-token","tenantURL":"` + b.URL + `/","scopes":["email"]}`
	out, err := testutil.RunBare(t, "", []string{"AUGMENT_SESSION_AUTH=" + session, "AUGMENT_DISABLE_AUTO_UPDATE=1"},
		node, script, "--print", "-i", "Reply with one word.")
	calls := b.Calls()
	if err == nil {
		t.Fatalf("auggie --print exited 0 against a service that answers 404: update docs/clients.md\n%s\ncalls: %q", out, calls)
	}
	if c := callsModel(calls); c != "" {
		t.Errorf("auggie called a model API itself (%s): it may now be driven against a fake; calls: %q", c, calls)
	}
	var chat bool
	for _, c := range calls {
		chat = chat || c == "POST /chat-stream"
	}
	if !chat || !strings.Contains(out, "API Error") {
		t.Errorf("auggie failed, but not on its service's /chat-stream:\n%s\ncalls: %q", out, calls)
	}
}

// TestE2EPyPIClientsCannotInstall reproduces why Mistral Vibe, fast-agent
// and OpenHands CLI have no row: each is published on PyPI only, and PyPI
// is not among the registries this project's machines reach; npm serves no
// package under their names. It fails the day pip downloads one of them
// or npm serves one.
func TestE2EPyPIClientsCannotInstall(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to try downloading the PyPI clients")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH to run pip with")
	}
	if exec.Command(python, "-m", "pip", "--version").Run() != nil {
		t.Skip("python3 has no pip")
	}
	npmBin, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("no npm on PATH")
	}
	pkgs := []struct{ name, version string }{
		{"mistral-vibe", "3.0.3"},
		{"fast-agent-mcp", "0.10.48"},
		{"openhands", "1.16.0"},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// One pip run for the three, from PyPI's own index whatever the
	// machine's pip configuration says: it succeeds only if all three
	// download.
	dest := t.TempDir()
	args := []string{"-m", "pip", "download", "--no-deps", "--no-cache-dir", "--retries", "0", "--timeout", "20",
		"--index-url", "https://pypi.org/simple", "--dest", dest}
	for _, p := range pkgs {
		args = append(args, p.name+"=="+p.version)
	}
	out, err := exec.CommandContext(ctx, python, args...).CombinedOutput()
	if err == nil {
		t.Errorf("pip downloaded %v: PyPI is reachable; add these clients through a pinned virtual environment and update docs/clients.md", pkgs)
	} else if files, _ := filepath.Glob(filepath.Join(dest, "*")); len(files) > 0 {
		t.Errorf("pip failed but downloaded %v: PyPI is reachable", files)
	} else if !strings.Contains(string(out), "No matching distribution") {
		t.Errorf("pip download failed, but not for want of the index:\n%s", out)
	}
	for _, p := range pkgs {
		view, err := exec.CommandContext(ctx, npmBin, "view", p.name, "name").CombinedOutput()
		if err == nil {
			t.Errorf("npm now serves a package named %s (%s): see whether it is the client", p.name, bytes.TrimSpace(view))
		} else if !bytes.Contains(view, []byte("404")) {
			t.Errorf("npm view %s failed, but not with 404:\n%s", p.name, view)
		}
	}
}

// TestE2ECodebuffDownloadsItsBinary reproduces why Codebuff has no row:
// the npm package codebuff@1.0.685 is a launcher that, on its first run,
// downloads the client from codebuff.com, which a machine that reaches
// only the package registries cannot fetch (and whose agent runs on
// Codebuff's service). It fails the day the launcher runs without that
// download.
func TestE2ECodebuffDownloadsItsBinary(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to install Codebuff from npm and run its launcher")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: "codebuff", Version: "1.0.685", Name: "codebuff"}, io.Discard,
		"node_modules/codebuff/index.js")
	if err != nil {
		t.Fatal(err)
	}
	// The launcher asks the npm registry for the latest version first, as
	// npm reaches it (this machine's CA bundle, if it names one).
	var env []string
	if ca := os.Getenv("NODE_EXTRA_CA_CERTS"); ca != "" {
		env = append(env, "NODE_EXTRA_CA_CERTS="+ca)
	}
	out, err := testutil.RunBare(t, "", env, node, script, "--help")
	if err == nil {
		t.Fatalf("codebuff --help exited 0 offline: it may now run without its download; update docs/clients.md\n%s", out)
	}
	if !strings.Contains(out, "Failed to download codebuff") || !strings.Contains(out, "codebuff.com/api/releases/download/1.0.685/") {
		t.Errorf("codebuff failed, but not on its binary's download:\n%s", out)
	}
}

// TestE2EQodoNeedsItsServers reproduces why Qodo Command has no row: with
// a key and its service's address pointed at a local stand-in, it asks
// the service what the account may use (/v2/info/get-things) and exits,
// "not available in your environment", having called no model API: its
// agent runs through Qodo's service. It fails the day it runs without
// that service or calls a model API of its own.
func TestE2EQodoNeedsItsServers(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to install Qodo Command from npm and run it against a local stand-in for its service")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	node, script, err := npm.NodeScript(ctx, npm.Package{Client: "qodo", Version: "0.36.0", Name: "@qodo/command"}, io.Discard,
		"node_modules/@qodo/command/bin/qodo.js")
	if err != nil {
		t.Fatal(err)
	}
	b := testutil.StartBackend(t)
	out, err := testutil.RunBare(t, "", []string{"QODO_API_KEY=dummy-key", "QODO_API_BASE_URL=" + b.URL, "QODO_BASE_URL=" + b.URL},
		node, script, "--ci", "-y", "Reply with one word.")
	calls := b.Calls()
	if err == nil {
		t.Fatalf("qodo exited 0 against a service that answers 404: update docs/clients.md\n%s\ncalls: %q", out, calls)
	}
	if c := callsModel(calls); c != "" {
		t.Errorf("qodo called a model API itself (%s): it may now be driven against a fake; calls: %q", c, calls)
	}
	var info bool
	for _, c := range calls {
		info = info || strings.HasPrefix(c, "GET /v2/info/")
	}
	if !info || !strings.Contains(out, "not available in your environment") {
		t.Errorf("qodo failed, but not on its service's /v2/info:\n%s\ncalls: %q", out, calls)
	}
}

// TestE2ELettaCodeCannotInstall reproduces why Letta Code has no row:
// @letta-ai/letta-code@0.32.18 depends on
// @janhapke/sharp-electron@0.35.3-electron.1, which the npm registry this
// project reaches does not serve, so npm installs nothing. It fails the
// day the install succeeds (then see whether it runs without a Letta
// server), or fails for another reason.
func TestE2ELettaCodeCannotInstall(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to try installing Letta Code from npm")
	}
	installFails(t, npm.Package{Client: "letta", Version: "0.32.18", Name: "@letta-ai/letta-code"},
		"see whether Letta Code runs against a fake model API", "no such version", "@janhapke/sharp-electron@0.35.3-electron.1")
}

// installFails installs pkg into a fresh cache and fails the test if npm
// installs it (then, says what to do) or if its error lacks any of want:
// the reason a client has no row.
func installFails(t *testing.T, pkg npm.Package, then string, want ...string) {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err := npm.Ensure(ctx, pkg, io.Discard)
	if err == nil {
		t.Fatalf("%s@%s installed: %s, and update docs/clients.md", pkg.Name, pkg.Version, then)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the install failed, but its error lacks %q:\n%s", w, err)
		}
	}
}

// TestE2EGoFrameworksOnTheGoSDK reproduces why no Go framework has a host
// on the official go-sdk client: of the Go agent frameworks that embed an
// MCP client, the module proxy serves none that embeds the go-sdk's. ADK
// for Go (google.golang.org/adk, whose mcptoolset is on the go-sdk),
// Eino's officialmcp tool and the Go ports of the OpenAI Agents SDK are
// not served (403); Genkit for Go is, but its MCP plugin is on
// github.com/mark3labs/mcp-go. It fails the day the proxy serves one of
// the first, or Genkit's newest release moves its plugin to the go-sdk:
// then write that framework's host.
func TestE2EGoFrameworksOnTheGoSDK(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to ask the Go module proxy for the Go agent frameworks")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// A module of its own, so that go list reads no go.mod of ours.
	dir := t.TempDir()
	goCmd := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, goBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		return cmd.CombinedOutput()
	}
	if out, err := goCmd("mod", "init", "probe"); err != nil {
		t.Fatalf("go mod init: %v\n%s", err, out)
	}
	for _, m := range []string{
		"google.golang.org/adk",
		"github.com/google/adk-go",
		"github.com/cloudwego/eino-ext/components/tool/mcp/officialmcp",
		"github.com/nlpodyssey/openai-agents-go",
	} {
		out, err := goCmd("list", "-m", "-versions", m)
		switch {
		case err == nil:
			t.Errorf("the module proxy now serves %s (%s): write its host on the go-sdk client and update docs/clients.md", m, bytes.TrimSpace(out))
		case !bytes.Contains(out, []byte("403")) && !bytes.Contains(out, []byte("404")):
			t.Errorf("go list -m -versions %s failed, but not as the proxy refusing it:\n%s", m, out)
		}
	}
	// Genkit for Go: served; its MCP plugin's client, in its newest
	// release's go.mod.
	out, err := goCmd("list", "-m", "-json", "github.com/firebase/genkit/go@latest")
	if err != nil {
		t.Fatalf("go list genkit: %v\n%s", err, out)
	}
	var mod struct{ Version, GoMod string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.GoMod == "" {
		t.Fatalf("go list genkit: %v\n%s", err, out)
	}
	gomod, err := os.ReadFile(mod.GoMod)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(gomod, []byte("github.com/modelcontextprotocol/go-sdk")) {
		t.Errorf("Genkit for Go %s requires the go-sdk: see whether its MCP plugin is on it, and write its host", mod.Version)
	} else if !bytes.Contains(gomod, []byte("github.com/mark3labs/mcp-go")) {
		t.Errorf("Genkit for Go %s requires neither MCP module: see what its MCP plugin is on now", mod.Version)
	}
}
