package matrix

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/jsonl"
)

func FuzzHandshake(f *testing.F) {
	for _, p := range mustGlob(f, filepath.Join("testdata", "runs", "*", "*", "1", evidence.LabLogFile)) {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs, _ := jsonl.Decode[LabMessage](bytes.NewReader(data), "lab.jsonl")
		h := handshake(msgs)
		if h.ProbeToFallbackMS != nil && !h.InitializeSent {
			t.Fatalf("a fallback delay without initialize: %+v", h)
		}
	})
}

func FuzzLocate(f *testing.F) {
	f.Add("BEGIN codeword: A-0001. abc", "x BEGIN codeword: A-0001. ab… [truncated]")
	f.Add("BEGIN codeword: 部品-0001. 部品", "BEGIN codeword: 部品-0001. 部")
	f.Fuzz(func(t *testing.T, text, segment string) {
		for _, p := range locate(fakeapi.Context{{Kind: fakeapi.KindUserTurn, Text: segment}}, "initialize", text) {
			if p.Kept < 0 || p.Kept > utf8.RuneCountInString(text) || (p.Full && p.Kept != utf8.RuneCountInString(text)) {
				t.Fatalf("placement %+v for a text of %d runes", p, utf8.RuneCountInString(text))
			}
		}
	})
}

func FuzzNormalize(f *testing.F) {
	f.Add([]byte(`{"metadata":{"a":1},"m":"toolu_01 127.0.0.1:80 /run/x"}`), "/run/x")
	f.Fuzz(func(t *testing.T, body []byte, path string) {
		once := Normalize(body, []string{path})
		if twice := Normalize(once, []string{path}); !bytes.Equal(once, twice) && path == "" {
			t.Fatalf("Normalize is not idempotent: %q then %q", once, twice)
		}
	})
}

func mustGlob(f *testing.F, pattern string) []string {
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) == 0 {
		f.Fatalf("no files match %s: %v", pattern, err)
	}
	return m
}
