package analyze

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// FuzzNormalizePrefilters: the cheap tests that keep Normalize's regexps
// off long texts never say no where the regexp would match.
func FuzzNormalizePrefilters(f *testing.F) {
	f.Add("id 0f0e1f4c-1d5e-4ad0-9a5d-2b1f3c4d5e6f toolu_01 msg_9 req_x srvtoolu_1 " + strings.Repeat("a1", 32))
	f.Add("x-0F0E1F4C-1D5E-4AD0-9A5D-2B1F3C4D5E6Fy")
	f.Add(strings.Repeat("-", 40) + strings.Repeat("f", 63) + "_")
	f.Fuzz(func(t *testing.T, s string) {
		if uuidRE().MatchString(s) && !mayHoldUUID(s) {
			t.Errorf("mayHoldUUID(%q) = false, but uuidRE matches", s)
		}
		if idRE().MatchString(s) && !mayHoldID(s) {
			t.Errorf("mayHoldID(%q) = false, but idRE matches", s)
		}
		if hex64RE().MatchString(s) && !hasHexRun(s, 64) {
			t.Errorf("hasHexRun(%q, 64) = false, but hex64RE matches", s)
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
