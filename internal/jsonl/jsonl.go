// Package jsonl reads JSON Lines evidence files the way every parser in
// instrlab must: line by line, reporting a bad line as "file:line: message"
// and going on with the next.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// MaxLine is the longest line read; a longer one ends the file with a
// warning.
const MaxLine = 64 << 20

// Lines calls fn for every non-blank line of r with its 1-based number.
// name is used in warnings. fn may return an error, which becomes a warning
// for that line.
func Lines(r io.Reader, name string, fn func(n int, line []byte) error) (warnings []string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256<<10), MaxLine)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			warnings = append(warnings, fmt.Sprintf("%s:%d: %v", name, n, err))
		}
	}
	if err := sc.Err(); err != nil {
		warnings = append(warnings, fmt.Sprintf("%s:%d: %v", name, n+1, err))
	}
	return warnings
}

// Each calls fn for every line of r that decodes as a T, with its
// 1-based number, and returns how many did; a line that does not decode
// is a warning and skipped.
func Each[T any](r io.Reader, name string, fn func(n int, v T)) (count int, warnings []string) {
	warnings = Lines(r, name, func(n int, line []byte) error {
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			return err
		}
		count++
		fn(n, v)
		return nil
	})
	return count, warnings
}

// Decode reads every line of r as a T, skipping (with a warning) lines
// that do not decode.
func Decode[T any](r io.Reader, name string) ([]T, []string) {
	var out []T
	_, w := Each(r, name, func(_ int, v T) { out = append(out, v) })
	return out, w
}
