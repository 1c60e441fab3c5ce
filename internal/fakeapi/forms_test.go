package fakeapi

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFormsRunes: a text with a quote and a line break has an escaped
// form, and a count of that form's runes, as CommonPrefix finds it cut in
// a request, converts back to the text's own runes (an escape cut in its
// middle does not count).
func TestFormsRunes(t *testing.T) {
	raw := "say \"é\"\nnow"
	forms := Forms(raw)
	want := []Form{{Text: raw, Raw: raw}, {Text: `say \"é\"\nnow`, Raw: raw, Escaped: true}}
	if diff := cmp.Diff(want, forms); diff != "" {
		t.Fatalf("Forms mismatch (-want +got):\n%s", diff)
	}
	if got := Forms("plain"); len(got) != 1 {
		t.Errorf("Forms(%q) = %v, want the text alone", "plain", got)
	}
	for _, tt := range []struct {
		request string
		kept    int
		rest    string
		runes   int
	}{
		{`say \"é\"\nnow`, 14, "", len([]rune(raw))},
		{`say \"é\"\n[cut]`, 11, "[cut]", 8},
		{`say \"é\`, 8, "", 6},
		{`say \`, 5, "", 4},
	} {
		kept, rest := CommonPrefix(forms[1].Text, tt.request)
		if kept != tt.kept || rest != tt.rest {
			t.Errorf("CommonPrefix(%q) = %d, %q; want %d, %q", tt.request, kept, rest, tt.kept, tt.rest)
		}
		if got := forms[1].Runes(kept); got != tt.runes {
			t.Errorf("Runes(%d) of %q = %d, want %d", kept, tt.request, got, tt.runes)
		}
		if got := forms[0].Runes(kept); got != kept {
			t.Errorf("the raw form's Runes(%d) = %d, want it unchanged", kept, got)
		}
	}
}
