package assess

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestDocumentedConflicts: a name a client sends whole past the limit its
// model API's provider documents is listed apart, with the clients that
// send it so; a name the client cuts or renames is not, nor one within
// the limit, nor any name of a client whose API documents no limit. It
// is no finding, and the text output says it is not measured.
func TestDocumentedConflicts(t *testing.T) {
	long := strings.Repeat("m", 58) // mcp__srv__ + 58 = 68 characters
	r := result(ok(probe.Legacy, nil, probe.Tool{Name: "get"}, probe.Tool{Name: long},
		probe.Tool{Name: "get.user"}, probe.Tool{Name: strings.Repeat("l", 125)}), notFound(), probe.Survival{}, 0)
	r.Target.Name = "srv"
	chat := surfaceProfile()
	chat.API = "openai-chat"
	other := surfaceProfile()
	other.Version, other.API = "2", "anthropic-messages"
	rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{chat, other}})
	s := rep.Servers[0]
	want := []Documented{{Provider: "OpenAI", API: "openai-chat", Limit: "tool names of at most 64 characters, only a-z, A-Z, 0-9, _ and -",
		Source: profiles.DocumentedLimits[0].Source,
		Tools:  []DocumentedTool{{Tool: long, Name: "mcp__srv__" + long, Why: "68 characters", Clients: []string{s.Views[0].Title}}}}}
	if diff := cmp.Diff(want, s.Documented); diff != "" {
		t.Errorf("documented conflicts mismatch (-want +got):\n%s", diff)
	}
	for _, f := range s.Findings {
		if strings.Contains(f.Said(), "documented") || strings.Contains(f.Said(), "OpenAI") {
			t.Errorf("a documented limit became a finding: %s", f.Said())
		}
	}
	var b strings.Builder
	if err := WriteText(&b, rep, TextOptions{Width: 1000}); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"documented by providers, not measured", "OpenAI (openai-chat): tool names of at most 64 characters",
		"tool " + long + " sent as mcp__srv__" + long + " (68 characters): " + s.Views[0].Title} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("the text output lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	if err := WriteMarkdown(&b, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Documented by OpenAI, not measured: tool names of at most 64 characters") || !strings.Contains(b.String(), "(68 characters; "+s.Views[0].Title+")") {
		t.Errorf("the Markdown lacks the documented limit:\n%s", b.String())
	}
	chat.API = ""
	if rep := Assess([]probe.Result{r}, Options{Profiles: []profiles.Profile{chat}}); rep.Servers[0].Documented != nil {
		t.Errorf("a profile naming no API: %+v", rep.Servers[0].Documented)
	}
}
