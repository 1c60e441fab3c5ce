package assess

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestTextsPredictions: for a server that declares prompts and
// resources, a profile that measured them says per client whether it asks
// for them, whether their texts reach the model, and whether a resource
// read with the client's own tool does; clients that behave alike share
// one finding. A server that declares neither gets no such finding, and a
// profile that did not measure them says so in its fact and predicts
// nothing.
func TestTextsPredictions(t *testing.T) {
	reader := surfaceProfile()
	reader.Name, reader.Version = "Reader", "1"
	reader.Surface.Texts = &profiles.Texts{Runs: 3, Prompts: profiles.TextsHidden, Resources: profiles.TextsHidden,
		Read: profiles.TextsWhole, ReadTools: []string{"list_mcp_resources", "read_mcp_resource"}}
	deaf := surfaceProfile()
	deaf.Name, deaf.Version = "Deaf", "2"
	deaf.Surface.Texts = &profiles.Texts{Runs: 2, Prompts: profiles.TextsUnasked, Resources: profiles.TextsUnasked, Read: profiles.TextsNoTool}
	deaf2 := surfaceProfile()
	deaf2.Name, deaf2.Version = "Deaf too", "3"
	deaf2.Surface.Texts = deaf.Surface.Texts
	none := surfaceProfile()
	none.Name, none.Version = "Unmeasured", "4"
	profs := []profiles.Profile{reader, deaf, deaf2, none}

	declares := ok(probe.Legacy, nil, probe.Tool{Name: "get"})
	declares.Capabilities = []string{"prompts", "resources", "tools"}
	rep := Assess([]probe.Result{result(declares, notFound(), probe.Survival{}, 0)}, Options{Profiles: profs})
	s := rep.Servers[0]
	var got []string
	for _, f := range s.Findings {
		if f.Code == TextsUnseen {
			var who []string
			for _, h := range f.For {
				who = append(who, h.Profile)
			}
			got = append(got, strings.Join(who, ",")+": "+f.Message)
		}
	}
	want := []string{
		reader.ID() + ": the server declares prompts and resources: the client asks for your prompts and puts none of their texts (names, titles, descriptions) in front of the model; asks for your resources and puts none of their texts (names, titles, descriptions) in front of the model; a resource reaches the model whole when the model reads it with the client's own resource tool (measured, 3 runs)",
		deaf.ID() + "," + deaf2.ID() + ": the server declares prompts and resources: the client does not ask for your prompts on its own; does not ask for your resources on its own; the client offers the model no tool to read a resource, so none reaches it (measured, 2 runs)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings mismatch (-want +got):\n%s", diff)
	}
	if v := s.Views[0]; v.Texts == nil || !cmp.Equal(v.Texts.ReadTools, []string{"list_mcp_resources", "read_mcp_resource"}) {
		t.Errorf("the reader's view's texts %+v, want its resource tools", v.Texts)
	}
	if v := s.Views[3]; v.Texts != nil {
		t.Errorf("a profile that did not measure them predicts %+v", v.Texts)
	}
	for _, f := range s.Views[3].Facts {
		if f.Name == surfaceFactName && !strings.HasSuffix(f.Value, "prompts and resources not measured") {
			t.Errorf("the unmeasured profile's fact %q does not say so", f.Value)
		}
	}

	plain := ok(probe.Legacy, nil, probe.Tool{Name: "get"})
	plain.Capabilities = []string{"tools"}
	rep = Assess([]probe.Result{result(plain, notFound(), probe.Survival{}, 0)}, Options{Profiles: profs})
	for _, f := range rep.Servers[0].Findings {
		if f.Code == TextsUnseen {
			t.Errorf("a server with no prompts or resources got %q", f.Message)
		}
	}
}
