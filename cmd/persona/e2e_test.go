package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// buildPersona builds this command into a temporary directory.
func buildPersona(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "persona")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The seed's flow with the built binary over stdio: check, "persona set
// hardass", check again. Each check is a new process (a new connect), with
// the database named by $PERSONA_DB; the first starts on a database that
// does not exist yet, as a fresh clone does.
func TestSeedFlowEndToEnd(t *testing.T) {
	bin := buildPersona(t)
	env := append(os.Environ(), "PERSONA_DB="+filepath.Join(t.TempDir(), "fresh", "app.db"))
	check := func(version string) string {
		t.Helper()
		cmd := exec.Command(bin, "serve")
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		client := mcp.NewClient(&mcp.Implementation{Name: "check", Version: "v0"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("connecting to persona serve: %v\nstderr:\n%s", err, stderr.String())
		}
		got := cs.InitializeResult().Instructions
		if err := cs.Close(); err != nil {
			t.Errorf("closing: %v\nstderr:\n%s", err, stderr.String())
		}
		if stderr.Len() > 0 {
			t.Errorf("persona serve wrote to stderr:\n%s", stderr.String())
		}
		t.Logf("instructions: %s", got)
		return got
	}
	soft, hard := builtIn(t, "supportive"), builtIn(t, "hardass")
	for _, version := range []string{"", legacyVersion} {
		if got := check(version); got != soft.Text {
			t.Errorf("first check (version %q): instructions = %q, want %q", version, got, soft.Text)
		}
	}

	set := exec.Command(bin, "set", "hardass")
	set.Env = env
	if out, err := set.CombinedOutput(); err != nil {
		t.Fatalf("persona set hardass: %v\n%s", err, out)
	}

	for _, version := range []string{"", legacyVersion} {
		if got := check(version); got != hard.Text {
			t.Errorf("second check (version %q): instructions = %q, want %q", version, got, hard.Text)
		}
	}
}
