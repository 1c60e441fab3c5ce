package redact

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type inner struct {
	Title string
	Data  json.RawMessage
	note  string
}

type outer struct {
	Name  string
	Items []inner
	ByKey map[string]*inner
	Any   any
	Arr   [2]string
	N     int
	Nil   []string
}

// TestCopy: every string and byte slice, however deep (slices, maps and
// their keys, pointers, interfaces, arrays), is hidden in the copy; the
// original is untouched, unexported fields are kept, nil stays nil.
func TestCopy(t *testing.T) {
	const s = "s3cret-value"
	in := outer{
		Name:  "a " + s,
		Items: []inner{{Title: s, Data: json.RawMessage(`{"k":"` + s + `"}`), note: "kept " + s}},
		ByKey: map[string]*inner{s: {Title: "t " + s}},
		Any:   inner{Title: s},
		Arr:   [2]string{s, "x"},
		N:     7,
	}
	hide := func(v string) string { return strings.ReplaceAll(v, s, Mask) }
	got := Copy(in, hide)
	want := outer{
		Name:  "a " + Mask,
		Items: []inner{{Title: Mask, Data: json.RawMessage(`{"k":"` + Mask + `"}`), note: "kept " + s}},
		ByKey: map[string]*inner{Mask: {Title: "t " + Mask}},
		Any:   inner{Title: Mask},
		Arr:   [2]string{Mask, "x"},
		N:     7,
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(inner{})); diff != "" {
		t.Errorf("Copy (-want +got):\n%s", diff)
	}
	if in.Items[0].Title != s || in.ByKey[s].Title != "t "+s {
		t.Error("Copy changed its input")
	}
}

// TestProsePieces: a known value and a key-shaped one cut in two are
// hidden in both pieces; what is around them is kept, and a single piece
// reads as Prose reads it.
func TestProsePieces(t *testing.T) {
	const known = "tenant-8842-prod"
	key := "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	r := New()
	r.AddSecret(known)
	text := "use " + known + " and " + key + " here"
	cut1 := strings.Index(text, known) + 6
	cut2 := strings.Index(text, key) + 10
	got := r.ProsePieces([]string{text[:cut1], text[cut1:cut2], text[cut2:]})
	want := []string{"use " + Mask, Mask + " and " + Mask, Mask + " here"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ProsePieces (-want +got):\n%s", diff)
	}
	if got := r.ProsePieces([]string{text}); got[0] != r.Prose(text) {
		t.Errorf("one piece: %q, Prose gives %q", got[0], r.Prose(text))
	}
}

// TestLearn: what String hides in a server's stderr by shape or name is
// hidden by value afterwards, in prose that does not show the shape.
func TestLearn(t *testing.T) {
	r := New()
	r.Learn("starting with --token=abcdef123456 and Authorization: Bearer qwertyuiop0987, user=alice")
	got := r.Prose("tenant abcdef123456 uses qwertyuiop0987; alice is fine")
	if want := "tenant " + Mask + " uses " + Mask + "; alice is fine"; got != want {
		t.Errorf("Prose after Learn = %q, want %q", got, want)
	}
	var nilR *Redactor
	nilR.Learn("--token=abcdef123456") // no panic
}

// TestKeyStarts: every key shape keyPatterns matches starts with one of
// keyStarts, so that the filter in front of the expression never lets a
// key through (one example of each alternative).
func TestKeyStarts(t *testing.T) {
	for _, k := range []string{
		"sk-ant-api03-abcdefghijklmnop", "sk_live_abcdefghijklmnop1234", "rk_test_abcdefghijklmnop1234", "pk_live_abcdefghijklmnop1234",
		"ghp_16C7e42F292c6912E7710c838347Ae178B4a", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "ghu_16C7e42F292c6912E7710c838347Ae178B4a",
		"ghs_16C7e42F292c6912E7710c838347Ae178B4a", "ghr_16C7e42F292c6912E7710c838347Ae178B4a", "github_pat_11ABCDEFG0123456789abcdefghijklmn",
		"glpat-abcdefghijklmnopqrst", "xoxb-1234567890-abcdef", "AKIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPLE",
		"AIzaSyA1234567890abcdefghijklmnopqrstuv", "npm_abcdefghijklmnopqrstuvwxyz0123456789", "eyJhbGciOiJI.eyJzdWIiOiIx.abcdefgh",
		"-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----",
	} {
		if !keyPatterns().MatchString(k) {
			t.Errorf("%q: not a key shape for keyPatterns (fix the example)", k)
			continue
		}
		if hideKeys("a "+k+" b") != "a "+Mask+" b" {
			t.Errorf("%q: hideKeys lets it through", k)
		}
	}
}

// TestCopyShares: what hide changes nothing in is shared with the input,
// not copied; a slice it changes one element of is copied whole, the
// input left as it was.
func TestCopyShares(t *testing.T) {
	const s = "s3cret-value"
	in := outer{Name: "plain", Items: []inner{{Title: "a"}, {Title: "b"}}, ByKey: map[string]*inner{"k": {Title: "t"}}}
	hide := func(v string) string { return strings.ReplaceAll(v, s, Mask) }
	got := Copy(in, hide)
	if &got.Items[0] != &in.Items[0] || reflect.ValueOf(got.ByKey).Pointer() != reflect.ValueOf(in.ByKey).Pointer() {
		t.Error("Copy copied a slice or map in which nothing was hidden")
	}
	in.Items[1].Title = s
	got = Copy(in, hide)
	if &got.Items[0] == &in.Items[0] || got.Items[0].Title != "a" || got.Items[1].Title != Mask || in.Items[1].Title != s {
		t.Errorf("Copy of a slice with a value to hide: %+v (input %+v), want a copy with it hidden", got.Items, in.Items)
	}
	if reflect.ValueOf(got.ByKey).Pointer() != reflect.ValueOf(in.ByKey).Pointer() {
		t.Error("Copy copied the map in which nothing was hidden")
	}
}
