package client

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArmHow(t *testing.T) {
	for _, tc := range []struct {
		arm  Arm
		want string
	}{
		{Arm{Name: "v2", Default: true}, "nothing set"},
		{Arm{Name: "x", Env: map[string]string{"B": "2", "A": "1"}, Cached: map[string]any{"tengu_f": true}, Settings: map[string]any{"k": "v"}},
			`env A=1; env B=2; settings k="v"; cached tengu_f=true`},
	} {
		if got := tc.arm.How(); got != tc.want {
			t.Errorf("%s: How() = %q, want %q", tc.arm.Name, got, tc.want)
		}
	}
}

func TestSettingPaths(t *testing.T) {
	servers := []Server{{Name: "lab"}, {Name: "b.two"}}
	for _, tc := range []struct {
		key  string
		want [][]string
	}{
		{"features.x", [][]string{{"features", "x"}}},
		{"mcp_servers.*.startup_timeout_sec", [][]string{{"mcp_servers", "lab", "startup_timeout_sec"}, {"mcp_servers", "b.two", "startup_timeout_sec"}}},
	} {
		if diff := cmp.Diff(tc.want, SettingPaths(tc.key, servers)); diff != "" {
			t.Errorf("SettingPaths(%q) mismatch (-want +got):\n%s", tc.key, diff)
		}
	}
}
