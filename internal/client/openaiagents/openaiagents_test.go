package openaiagents

import (
	"slices"
	"testing"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/host"
)

// TestFramework: the fake is the OpenAI client's base URL, under /v1,
// with the run's dummy key; the host names no model of its own (the SDK's
// default runs) and the SDK's default turns; arm structured-content sets
// the servers' option.
func TestFramework(t *testing.T) {
	f := New("").(*host.Framework)
	env := f.Env(&client.Run{APIURL: "http://127.0.0.1:9/", APIKey: "k"})
	if env["OPENAI_BASE_URL"] != "http://127.0.0.1:9/v1" || env["OPENAI_API_KEY"] != "k" || len(env) != 2 {
		t.Errorf("env %v", env)
	}
	if f.Model != "" || f.Steps != 10 || f.Package() != "@openai/agents" || f.Spec().Version != DefaultVersion {
		t.Errorf("model %q steps %d package %q spec %s", f.Model, f.Steps, f.Package(), f.Spec())
	}
	var names []string
	for _, a := range f.Arms() {
		names = append(names, a.Name+" "+a.How())
	}
	if !slices.Equal(names, []string{"default nothing set", "structured-content settings useStructuredContent=true"}) {
		t.Errorf("arms %q", names)
	}
}
