package fakeapi

import "unicode/utf8"

// A Form is a text as a request may carry it inside a segment's text: as
// it is (Raw), or escaped as inside a JSON string (a listing that quotes
// a tool's description, a tool result serialized whole into a text).
type Form struct {
	Text, Raw string
	Escaped   bool
}

// Forms are the forms s may take in a request: s itself, then its
// JSONEscape form where that differs.
func Forms(s string) []Form {
	forms := []Form{{Text: s, Raw: s}}
	if e := JSONEscape(s); e != s {
		forms = append(forms, Form{Text: e, Raw: s, Escaped: true})
	}
	return forms
}

// Runes converts a count of the form's runes, as CommonPrefix counts
// them in a request, to a count of Raw's: how much of the text itself
// arrived.
func (f Form) Runes(n int) int {
	if !f.Escaped {
		return n
	}
	kept, used := 0, 0
	for _, r := range f.Raw {
		w := utf8.RuneCountInString(JSONEscape(string(r)))
		if used+w > n {
			break
		}
		used += w
		kept++
	}
	return kept
}

// CommonPrefix counts the runes a and b share at their start, and returns
// the rest of b: how much of a text a request kept where its start was
// found, and what followed there.
func CommonPrefix(a, b string) (int, string) {
	n, i := 0, 0
	for i < len(a) && i < len(b) {
		ra, sa := utf8.DecodeRuneInString(a[i:])
		rb, _ := utf8.DecodeRuneInString(b[i:])
		if ra != rb {
			break
		}
		i += sa
		n++
	}
	return n, b[i:]
}
