package client

import "testing"

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
