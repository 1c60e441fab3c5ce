package untrusted

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/schema"
)

func TestRawJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{`{"a":"` + "\xff" + `"}`, `{"a":"\ufffd"}`},
		{`"` + "\u009b2J\u202e" + `"`, `"\u009b2J\u202e"`},
		{`"##[add-mask]x"`, `"\u0023#[add-mask]x"`},
		{"not json \xff", `"not json \ufffd"`},
		{`"❤️ \ufe0f"`, `"❤️ \ufe0f"`},
		{"", ""},
	} {
		if got := string(RawJSON([]byte(tc.in))); got != tc.want {
			t.Errorf("RawJSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzJSON builds instrlab JSON around untrusted text (as a string, and
// as an error reply's raw data) and checks that it is valid JSON in valid
// UTF-8 with nothing raw to show, and that it keeps the value: the string
// decodes to what the server sent (invalid UTF-8 as U+FFFD, as
// encoding/json does), raw data that was valid JSON to the same value.
func FuzzJSON(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		type reply struct {
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		}
		var b strings.Builder
		if err := JSON(&b, reply{Message: s, Data: RawJSON([]byte(s))}); err != nil {
			t.Fatalf("JSON with %q: %v", s, err)
		}
		out := b.String()
		if !json.Valid([]byte(out)) || !utf8.ValidString(out) {
			t.Fatalf("JSON with %q: invalid output %q", s, out)
		}
		if std, _ := json.MarshalIndent(reply{Message: s, Data: RawJSON([]byte(s))}, "", "  "); out != string(SafeJSON(std))+"\n" {
			t.Fatalf("JSON with %q = %q, not json.MarshalIndent's %q made safe", s, out, SafeJSON(std))
		}
		for i, r := range out {
			if r < 0x20 && r != '\n' || r == 0x7f || isControl(r) || kindAt(out, i, r) != "" {
				t.Fatalf("JSON with %q = %q: raw %U at %d", s, out, r, i)
			}
		}
		if l, ok := runnerCommand(out); ok {
			t.Fatalf("JSON with %q = %q: a runner reads %q as a workflow command", s, out, l)
		}
		var got struct {
			Message string
			Data    any
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatal(err)
		}
		if got.Message != validRunes(s) {
			t.Fatalf("JSON with %q: message decodes to %q", s, got.Message)
		}
		var want any
		if utf8.ValidString(s) && json.Unmarshal([]byte(s), &want) == nil {
			if diff := cmp.Diff(want, got.Data); diff != "" {
				t.Fatalf("RawJSON(%q) changed the value (-want +got):\n%s", s, diff)
			}
		}
	})
}

// validRunes is s with each byte of invalid UTF-8 replaced by U+FFFD, as
// encoding/json writes a string.
func validRunes(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// TestSafeJSONASCII: SafeJSON's copy of ASCII as it is, in the slow path
// a character beyond ASCII takes, gives what the character-by-character
// reading gives: every ASCII character but DEL, and # where it starts
// "##[", is kept.
func TestSafeJSONASCII(t *testing.T) {
	var b strings.Builder
	b.WriteString(`"é `)
	for c := 0x20; c < 0x80; c++ {
		if c == '"' || c == '\\' {
			continue
		}
		b.WriteByte(byte(c))
	}
	b.WriteString(` ##[x #y"`)
	got := string(SafeJSON([]byte(b.String())))
	want := strings.Replace(strings.Replace(b.String(), "\x7f", `\u007f`, 1), "##[", `\u0023#[`, 1)
	if got != want {
		t.Errorf("SafeJSON:\n got %q\nwant %q", got, want)
	}
}

// FuzzIndent: appendIndent indents any compact JSON as encoding/json's
// Indent does, and makes it safe as SafeJSON does.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{},[],{"b":"c\\\"d,:{["}],"e":null}`, `"x"`, `[[[]],[{}]]`, `{"":""}`} {
		f.Add(s)
	}
	addSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(s)) != nil {
			return // not JSON
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		if got, want := appendIndent(nil, compact.Bytes()), SafeJSON(want.Bytes()); string(got) != string(want) {
			t.Fatalf("appendIndent(%q) = %q, want %q", compact.Bytes(), got, want)
		}
	})
}

// BenchmarkMarshal encodes a check-sized value (about 150 KB indented)
// as Marshal does and as json.MarshalIndent with SafeJSON did.
func BenchmarkMarshal(b *testing.B) {
	type row struct {
		Name  string            `json:"name"`
		Notes []string          `json:"notes"`
		Meta  map[string]string `json:"meta"`
		N     int               `json:"n"`
	}
	var v []row
	for i := range 600 {
		v = append(v, row{Name: strings.Repeat("tool ", i%7), Notes: []string{"cut at 2,048 UTF-16 units", "kept"}, Meta: map[string]string{"k": "v"}, N: i})
	}
	b.Run("marshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := Marshal(v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("marshalindent", func(b *testing.B) {
		for b.Loop() {
			out, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				b.Fatal(err)
			}
			SafeJSON(out)
		}
	})
}

// TestMarshalCompactJSON: a value Marshal asks for its compact JSON
// (schema.Named's) gives what json.MarshalIndent of it gives, made safe;
// its error is Marshal's.
func TestMarshalCompactJSON(t *testing.T) {
	v := schema.Named(schema.Check, map[string]any{"text": "<a> & é\u2028 ##[x", "n": []int{1, 2}, "empty": map[string]any{}, "none": []int{}})
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	std, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if want := SafeJSON(std); string(got) != string(want) {
		t.Errorf("Marshal(schema.Named(...)):\n got %s\nwant %s", got, want)
	}
	if _, err := Marshal(schema.Named(schema.Check, []int{1})); err == nil || !strings.Contains(err.Error(), "not a JSON object") {
		t.Errorf("Marshal of a named array: err = %v, want Named's", err)
	}
}
