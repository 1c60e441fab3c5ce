package matrix

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/lab"
)

// fakeClient is a fake client at version, enough to pick arms for.
func fakeClient(version string) *fakeclient.Client {
	return &fakeclient.Client{Version: version}
}

func armedClient(version string) client.Client {
	c := fakeClient(version)
	c.ArmList = []client.Arm{
		{Name: "wide", Default: true},
		{Name: "narrow", Env: map[string]string{"FAKE_CAP": "500"}},
	}
	return c
}

func armNames(arms []client.Arm) []string {
	var names []string
	for _, a := range arms {
		names = append(names, a.Name)
	}
	return names
}

func TestPickArms(t *testing.T) {
	armed, plain := armedClient("1"), fakeClient("2")
	cs := []client.Client{armed, plain}
	for _, tc := range []struct {
		name    string
		sel     []string
		perFile map[string][]string
		want    map[string][]string
		err     string
	}{
		{name: "nothing given", want: map[string][]string{"fake@1": {"wide"}, "fake@2": {"default"}}},
		{name: "default", sel: []string{"default"}, want: map[string][]string{"fake@1": {"wide"}, "fake@2": {"default"}}},
		{name: "all", sel: []string{"all"}, want: map[string][]string{"fake@1": {"wide", "narrow"}, "fake@2": {"default"}}},
		{name: "a name runs on the clients that know it", sel: []string{"narrow"}, want: map[string][]string{"fake@1": {"narrow"}}},
		{name: "names with default", sel: []string{"narrow", "default"}, want: map[string][]string{"fake@1": {"wide", "narrow"}, "fake@2": {"default"}}},
		{name: "a name no client knows", sel: []string{"narow"}, err: `no client has an arm "narow" (fake@1: wide, narrow; fake@2: default)`},
		{name: "the matrix file's arms", perFile: map[string][]string{"fake": {"narrow"}}, err: `fake@2 has no arm "narrow" (its arms: default)`},
		{name: "the flag wins over the file", sel: []string{"default"}, perFile: map[string][]string{"fake": {"narrow"}}, want: map[string][]string{"fake@1": {"wide"}, "fake@2": {"default"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &Matrix{Arms: tc.perFile}
			got, err := m.PickArms(cs, tc.sel)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			names := map[string][]string{}
			for k, v := range got {
				names[k] = armNames(v)
			}
			if diff := cmp.Diff(tc.want, names); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatrixArmsValidate(t *testing.T) {
	for _, tc := range []struct {
		arms map[string][]string
		err  string
	}{
		{map[string][]string{"claude-code": {}}, `arms of "claude-code": empty list`},
		{map[string][]string{"claude-code": {"V1"}}, `arms of "claude-code": "V1": want lower case`},
	} {
		m := &Matrix{Name: "test", Repeats: 1, Prompt: "p", Rows: []Row{{Name: "a", Args: lab.Args{Instr: "none"}}}}
		m.Arms = tc.arms
		if err := m.Validate(); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("arms %v: error %v, want %q", tc.arms, err, tc.err)
		}
	}
}

// TestRunnerRunsEachArm runs one row in both arms of a client: each arm
// has its own evidence, records the arm and how it was set, and its
// switch reaches the client (the narrow arm's cap cuts the text).
