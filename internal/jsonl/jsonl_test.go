package jsonl

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLines(t *testing.T) {
	in := "a\n\n  \nbad\nc"
	var got []string
	warnings := Lines(strings.NewReader(in), "f.jsonl", func(n int, line []byte) error {
		if string(line) == "bad" {
			return errors.New("not good")
		}
		got = append(got, string(line))
		return nil
	})
	if diff := cmp.Diff([]string{"a", "c"}, got); diff != "" {
		t.Errorf("lines mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"f.jsonl:4: not good"}, warnings); diff != "" {
		t.Errorf("warnings mismatch (-want +got):\n%s", diff)
	}
}

func TestDecode(t *testing.T) {
	type rec struct{ N int }
	got, warnings := Decode[rec](strings.NewReader("{\"N\":1}\n[\n{\"N\":3}\n"), "r.jsonl")
	if diff := cmp.Diff([]rec{{1}, {3}}, got); diff != "" {
		t.Errorf("records mismatch (-want +got):\n%s", diff)
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "r.jsonl:2: ") {
		t.Errorf("warnings %q", warnings)
	}
}

// TestEach: fn gets each line that decodes with its number, and the count
// is theirs alone (not the line that does not decode, nor a blank one).
func TestEach(t *testing.T) {
	type rec struct{ N int }
	var got []int
	count, warnings := Each(strings.NewReader("{\"N\":1}\n\n[\n{\"N\":3}\n"), "r.jsonl", func(n int, v rec) {
		got = append(got, n, v.N)
	})
	if diff := cmp.Diff([]int{1, 1, 4, 3}, got); diff != "" {
		t.Errorf("lines mismatch (-want +got):\n%s", diff)
	}
	if count != 2 || len(warnings) != 1 || !strings.HasPrefix(warnings[0], "r.jsonl:3: ") {
		t.Errorf("count %d, warnings %q; want 2 and one warning of line 3", count, warnings)
	}
}

func TestTooLongLine(t *testing.T) {
	in := "{}\n" + strings.Repeat("x", MaxLine+1) + "\n{}\n"
	n := 0
	warnings := Lines(strings.NewReader(in), "big", func(int, []byte) error { n++; return nil })
	if n != 1 || len(warnings) != 1 || !strings.HasPrefix(warnings[0], "big:2: ") {
		t.Errorf("read %d lines, warnings %q", n, warnings)
	}
}
