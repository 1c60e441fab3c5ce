package host

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/npm"
	"github.com/instrlab/instrlab/internal/evidence"
)

// A Framework is the adapter of one agent framework, driven by its host:
// what a framework's folder states (its Info, host, defaults, the
// environment that points its provider at the fake, its arms) is all that
// differs between frameworks; provisioning, the command and reading the
// host's output are the same for each.
type Framework struct {
	client.Base
	// Host is the host program and its locked dependencies.
	Host npm.Host
	// Model is the model the host names when the row names none; "" for
	// the framework's own default (its host then names none).
	Model string
	// Steps is the host's bound on model turns when the row names none:
	// the documentation's, or the framework's default.
	Steps int
	// Env is the environment that points the framework's provider at the
	// run's fake API, with its dummy key.
	Env func(r *client.Run) map[string]string
	// ArmList is the framework's arms (the documentation's app, then apps
	// that choose otherwise).
	ArmList []client.Arm

	node, script string
}

// Package implements client.Published: the package whose releases are
// its versions.
func (f *Framework) Package() string { return f.Host.Package }

// Hosted is the host, which installs from its own lock (TestPinnedLocks
// checks it in place of a lock of Package alone).
func (f *Framework) Hosted() npm.Host { return f.Host }

// Provision implements client.Client: the host with Package at the
// version.
func (f *Framework) Provision(ctx context.Context, progress io.Writer) error {
	node, script, err := f.Host.Ensure(ctx, f.Version, progress)
	if err != nil {
		return err
	}
	f.node, f.script = node, script
	return nil
}

// Command implements client.Client: node runs the host on the run's
// config (ConfigFile) in the run's working folder.
func (f *Framework) Command(ctx context.Context, r *client.Run) (*exec.Cmd, error) {
	if f.script == "" {
		return nil, fmt.Errorf("%s is not provisioned", f.Spec())
	}
	cfg, err := Config(r, f.Model, f.Steps)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, f.node, f.script, cfg)
	cmd.Dir = r.Work
	cmd.Env = r.Environ(f.Env(r))
	return cmd, nil
}

// Observe implements client.Client: the host's JSON lines on stdout.
func (f *Framework) Observe(e client.Evidence) client.Observation {
	var o client.Observation
	Read(&o, e.Dir, evidence.StdoutFile, e.Primary())
	return o
}

// Arms implements client.Armed.
func (f *Framework) Arms() []client.Arm { return f.ArmList }

// OpenAIEnv points the official OpenAI client (and the providers built on
// it) at the run's fake: OPENAI_BASE_URL under /v1, and the dummy key.
func OpenAIEnv(r *client.Run) map[string]string {
	return map[string]string{"OPENAI_API_KEY": r.APIKey, "OPENAI_BASE_URL": strings.TrimRight(r.APIURL, "/") + "/v1"}
}

// GeminiEnv points Google's Gen AI SDK (@google/genai, and the frameworks
// built on it) at the run's fake: GOOGLE_GEMINI_BASE_URL, and the dummy
// key as GEMINI_API_KEY.
func GeminiEnv(r *client.Run) map[string]string {
	return map[string]string{"GEMINI_API_KEY": r.APIKey, "GOOGLE_GEMINI_BASE_URL": r.APIURL}
}
