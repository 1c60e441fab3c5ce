package matrix

import (
	"fmt"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"

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
	wantAll := []string{"none", "en-1000", "en-6000", "en-20000", "ja-3000",
		"emoji-6000", "emoji-3000", "cjkb-6000", "combining-6000", "en-1000-dual", "en-1000-held3", "en-1000-held8", "servers",
		"http-none", "http-legacy", "http-dual", "http-modern", "http-ttl", "http-ttl-50ms", "http-en-6000"}
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

// TestCrossUnitLabels keeps the unit rows' labels true: the counts a label
// gives in UTF-16 units, bytes and graphemes are the text's.
func TestCrossUnitLabels(t *testing.T) {
	for _, r := range Cross().Rows {
		in, err := lab.ParseInstructions(r.Instr)
		if err != nil || !in.Present() {
			continue
		}
		txt, err := in.For(lab.ReplyInitialize)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []unit.Unit{unit.UTF16, unit.Byte, unit.Grapheme} {
			name := map[unit.Unit]string{unit.UTF16: "UTF-16 units", unit.Byte: "bytes", unit.Grapheme: "graphemes"}[u]
			if !strings.Contains(r.Label, " "+name) {
				continue
			}
			n := u.Count(txt.Text)
			want := fmt.Sprintf("%d,%03d %s", n/1000, n%1000, name)
			if !strings.Contains(r.Label, want) {
				t.Errorf("row %s: label %q does not say %q", r.Name, r.Label, want)
			}
		}
	}
}
