package matrix

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCross(t *testing.T) {
	m := Cross()
	var all, own []string
	for _, r := range m.Rows {
		if len(r.Clients) == 0 {
			all = append(all, r.Name)
		} else {
			own = append(own, r.Name)
		}
	}
	wantAll := []string{"none", "en-1000", "en-6000", "en-20000", "ja-3000", "en-1000-dual", "en-1000-held3", "en-1000-held8"}
	if diff := cmp.Diff(wantAll, all); diff != "" {
		t.Errorf("rows for every client mismatch (-want +got):\n%s", diff)
	}
	if len(own) == 0 {
		t.Error("no client-specific rows")
	}
	for _, name := range []string{"seed", "cross"} {
		if m, ok := Builtin(name); !ok || m.Name != name {
			t.Errorf("Builtin(%q) = %v, %v", name, m, ok)
		}
	}
	if _, ok := Builtin("nope"); ok {
		t.Error("Builtin found an unknown matrix")
	}
}
