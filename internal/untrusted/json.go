package untrusted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// JSON writes v as indented JSON followed by a newline, made safe by
// SafeJSON: every output instrlab writes in JSON goes through it.
func JSON(w io.Writer, v any) error {
	b, err := Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Marshal is json.MarshalIndent (two spaces) made safe by SafeJSON. It
// indents on its own (appendIndent): encoding/json's Indent, a scanner
// that checks every byte again, took half of a check's -json output
// (BenchmarkMarshal). A v that writes itself as compact JSON (a
// CompactJSON method, as schema.Named has) is asked directly.
func Marshal(v any) ([]byte, error) {
	var b []byte
	var err error
	if c, ok := v.(compactJSON); ok {
		b, err = c.CompactJSON()
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return nil, err
	}
	return appendIndent(make([]byte, 0, len(b)+len(b)/2+1), b), nil // +1: JSON's newline
}

// A compactJSON writes itself as valid, compact JSON, as json.Marshal
// writes a value (schema.Named, the top of every output). json.Marshal
// would scan the text a json.Marshaler returns again, to check and compact
// it: a fifth of a check's -json output.
type compactJSON interface {
	CompactJSON() ([]byte, error)
}

// appendIndent appends src, compact JSON as json.Marshal writes it (no
// space outside strings), indented as json.MarshalIndent(v, "", "  ")
// would: a member or element a line, an empty object or array kept as
// {} or []; and made safe as SafeJSON makes it, string by string, in the
// same pass.
func appendIndent(dst, src []byte) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			// A string, to its closing quote: copied as it is.
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(src)-1)
			if str := src[i : j+1]; safeJSON(str) {
				dst = append(dst, str...)
			} else {
				dst = appendSafe(dst, string(str))
			}
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// RawJSON returns data, a JSON value a server sent (an error's data, a
// result), as a value that may be copied into instrlab's JSON: data made
// safe by SafeJSON when it is valid JSON, and otherwise the text of data
// as a JSON string, so that nothing a server sends can make the output
// invalid.
func RawJSON(data []byte) json.RawMessage {
	if len(data) == 0 {
		return nil
	}
	if json.Valid(data) {
		return SafeJSON(data)
	}
	b, _ := json.Marshal(string(data))
	return SafeJSON(b)
}

// SafeJSON returns the JSON text b with the same value, written so that it
// is valid UTF-8 and shows nothing raw when printed: a byte of invalid
// UTF-8 (which encoding/json copies from a json.RawMessage) becomes
// \ufffd, as encoding/json writes it in a string; DEL, C1 controls, line
// separators and invisible characters (see Invisible) become \u escapes;
// and the "#" of "##[" becomes \u0023, so that no line is a CI workflow
// command. Outside its strings JSON is ASCII, so every change falls inside
// a string. b must be valid JSON apart from its UTF-8.
func SafeJSON(b []byte) []byte {
	if safeJSON(b) {
		return b
	}
	return appendSafe(make([]byte, 0, len(b)+16), string(b))
}

// appendSafe appends s, JSON text, as SafeJSON returns it.
func appendSafe(out []byte, s string) []byte {
	for i := 0; i < len(s); {
		if plainASCII(s[i]) {
			// ASCII other than DEL and #: neither a control nor an
			// invisible character; copied as it is, a run at a time, the
			// most of any output.
			j := i + 1
			for j < len(s) && plainASCII(s[j]) {
				j++
			}
			out = append(out, s[i:j]...)
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case r == 0x7f || isControl(r) || kindAt(s, i, r) != "":
			out = appendJSONRune(out, r)
		case r == '#' && i+2 < len(s) && s[i+1] == '#' && s[i+2] == '[':
			out = append(out, `\u0023`...)
		default:
			out = append(out, s[i:i+size]...)
		}
		i += size
	}
	return out
}

// plainASCII reports an ASCII byte SafeJSON copies as it is wherever it
// is: not DEL, not #.
func plainASCII(c byte) bool { return c < utf8.RuneSelf && c != 0x7f && c != '#' }

// safeJSON reports JSON text that SafeJSON leaves as it is.
func safeJSON(b []byte) bool {
	for i, c := range b {
		if c >= utf8.RuneSelf || c == 0x7f || c == '#' && bytes.HasPrefix(b[i:], []byte("##[")) {
			return false
		}
	}
	return true
}

// appendJSONRune appends r as a JSON \u escape (a surrogate pair above
// U+FFFF).
func appendJSONRune(out []byte, r rune) []byte {
	if r > 0xffff {
		r -= 0x10000
		return fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
	}
	return fmt.Appendf(out, `\u%04x`, r)
}
