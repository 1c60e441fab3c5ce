// Package fakeclient is a toy MCP client for tests of the runner and the
// commands: a test binary re-executes itself (the fork-exec TestMain trick)
// as the client and as the lab server, so the whole pipeline (fake API,
// lab, evidence, analysis) runs without a real client installed.
//
// As a client it connects to the configured stdio server with initialize
// and tools/list, puts the instructions it gets, cut at FAKE_CAP
// characters, into a system message under "## <server>" and offers the
// server's tools as mcp__<server>__<tool> beside a tool of its own, posts
// one streaming Anthropic Messages request, and prints stream-json events
// like Claude Code's. It has a known wait budget when FAKE_WAIT is set: it
// waits that long from starting the server, then sends without it
// (FAKE_PAST=send, status "pending"), drops it (FAKE_PAST=drop, status
// "failed") or exits 1 before any model request (FAKE_PAST=exit); with FAKE_TURNS=N it makes N requests, FAKE_GAP apart, and a server ready
// after the first joins the next one with its instructions and tools
// (FAKE_LATE=join) or its tools alone (FAKE_LATE=tools); each turn puts
// its message before the system message, which so moves, unless
// FAKE_HISTORY=append, where each request repeats the one before and adds
// a message. With FAKE_TOOL_ORDER=sort it offers the server's tools
// sorted by name, else in the server's order. Without
// FAKE_WAIT it waits for the server as long as it takes. With
// FAKE_DEFER_AT=N it defers a server's tools once it lists N or more:
// names them in a user message behind a ToolSearch tool instead of
// defining them; with FAKE_NAME_MAX=L it drops a tool whose prefixed name
// is longer than L (FAKE_NAME_PAST=drop) or cuts the name to L
// (FAKE_NAME_PAST=cut). FAKE_CHILD=CMD starts sh -c CMD in its process
// group after its init event and leaves it running. FAKE_MODE "hang"
// never ends, "stall" never ends after its first model request, "crash"
// exits 3 after its init event, and "no-model" exits 0 there, without a
// model request. FAKE_LAB_CPU (LabCPUEnv) has the lab
// server it starts use that much CPU first. Over Streamable HTTP (a
// server with a URL), FAKE_PROBE=1 sends server/discover first and
// FAKE_REFETCH=1 fetches it again before a later turn once its ttlMs has
// passed; FAKE_CALL=TOOL calls that tool after each turn but the last, and
// FAKE_REOPEN=1 opens a new session when a call gets no answer, calls
// again there and takes the new session's text and tools (http.go).
package fakeclient

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/claudecode"
)

// Name is the client's name in -client flags.
const Name = "fake"

const envRole = "INSTRLAB_FAKECLIENT"

// Client runs Exe (a test binary whose TestMain calls Main) as the client.
type Client struct {
	Exe     string
	Version string
	// Env is added to every run, as in FAKE_MODE=hang.
	Env map[string]string
	// ArmList is what Arms declares (FAKE_CAP in an arm's Env sets its cap).
	ArmList []client.Arm
}

// Arms implements client.Armed.
func (c *Client) Arms() []client.Arm { return c.ArmList }

// Spec implements client.Client.
func (c *Client) Spec() client.Spec { return client.Spec{Name: Name, Version: c.Version} }

// API implements client.Client.
func (c *Client) API() string { return "anthropic-messages" }

// Provision implements client.Client; there is nothing to install.
func (c *Client) Provision(ctx context.Context, progress io.Writer) error { return nil }

// Command implements client.Client.
func (c *Client) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	server, err := json.Marshal(r.Primary())
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, c.Exe)
	cmd.Dir = r.Work
	base := r.APIURL
	if r.Arm.Direct {
		base = "https://" + DirectHost
	}
	env := map[string]string{
		envRole:              "client",
		"ANTHROPIC_BASE_URL": base,
		"ANTHROPIC_API_KEY":  r.APIKey,
		"FAKE_SERVER":        string(server),
		"FAKE_PROMPT":        r.Prompt,
	}
	// A race-built test binary sleeps GORACE's atexit_sleep_ms (a second
	// by default) as it exits; CI sets it to 0, and the fake client (the
	// test binary itself) and the lab it starts inherit that.
	if v, ok := os.LookupEnv("GORACE"); ok {
		env["GORACE"] = v
	}
	for k, v := range c.Env {
		env[k] = v
	}
	cmd.Env = r.Environ(env)
	return cmd, nil
}

// DirectHost is the vendor host of a Direct fake client; FAKE_HOST, when
// set, names another that it posts to instead (one its vendor does not
// list, as a client of an unknown host would).
const DirectHost = "api.anthropic.com"

// A Direct fake client can run in the direct arm: it posts to
// https://DirectHost with Go's own TLS, which trusts the CA file that
// SSL_CERT_FILE names when Trust lists it (nil: it trusts no CA of the
// run's, and refuses its certificate).
type Direct struct {
	*Client
	Trust []string
}

// Vendor implements client.Direct.
func (d Direct) Vendor() client.Vendor {
	return client.Vendor{Hosts: []string{DirectHost}, TrustEnv: d.Trust, Says: "the fake client posts to https://" + DirectHost}
}

// Observe implements client.Client: the output is in Claude Code's
// stream-json format, so Claude Code's reader reads it.
func (c *Client) Observe(e client.Evidence) client.Observation {
	return claudecode.Observe(e.Dir, e.Primary())
}

// LabEnv marks a process started as the lab server.
const LabEnv = "INSTRLAB_FAKECLIENT_LAB"

// Main acts as the client or the lab server when the process was started
// as one, and exits; otherwise it returns at once. Call it first in
// TestMain.
func Main() {
	serveLab()
	switch os.Getenv(envRole) {
	case "client":
		os.Exit(runClient())
	}
}

func capFromEnv() int {
	n, err := strconv.Atoi(os.Getenv("FAKE_CAP"))
	if err != nil || n <= 0 {
		return 2048
	}
	return n
}

func fail(format string, args ...any) int {
	fmt.Fprintf(os.Stderr, "fakeclient: "+format+"\n", args...)
	return 1
}
