package fakeapi

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRead(t *testing.T) {
	prompt := `Reply with BEGIN=<the codeword after "BEGIN codeword:"> LAST=<the largest N in any marker written as [at N]>, e.g. [at 99999].`
	tests := []struct {
		name string
		ctx  Context
		want Answer
	}{
		{"empty", nil, Answer{Last: -1}},
		{"prompt only", Context{{Kind: KindUserTurn, Text: prompt}}, Answer{Last: -1}},
		{"full text", Context{
			{Kind: KindSystem, Text: "You are a helper."},
			{Kind: KindSystemMessage, Text: "## lab\nBEGIN codeword: HERON-4821. a [at 250] b [at 512] c END codeword: OSPREY-3094."},
			{Kind: KindUserTurn, Text: prompt},
		}, Answer{Begin: "HERON-4821", End: "OSPREY-3094", Last: 512}},
		{"truncated", Context{
			{Kind: KindUserTurn, Text: "<system-reminder>BEGIN codeword: HERON-4821. [at 250] [at 2009] Use… [truncated]</system-reminder>"},
		}, Answer{Begin: "HERON-4821", Last: 2009}},
		{"japanese codeword words stay ascii", Context{
			{Kind: KindUserTurn, Text: "BEGIN codeword: WAXWING-0001. 部品[at 250]在庫 END codeword: TANAGER-0002."},
		}, Answer{Begin: "WAXWING-0001", End: "TANAGER-0002", Last: 250}},
		{"first codeword wins", Context{
			{Kind: KindSystemMessage, Text: "BEGIN codeword: A-0001."},
			{Kind: KindUserTurn, Text: "BEGIN codeword: B-0002."},
		}, Answer{Begin: "A-0001", Last: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Read(tt.ctx, prompt)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Read mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLineRoundTrip(t *testing.T) {
	for _, a := range []Answer{{Last: -1}, {Begin: "HERON-4821", Last: 2009}, {Begin: "A-0001", End: "B-0002", Last: 0}} {
		got, ok := ParseLine("Here: " + a.Line())
		if !ok {
			t.Fatalf("ParseLine(%q) found no line", a.Line())
		}
		if diff := cmp.Diff(a, got); diff != "" {
			t.Errorf("ParseLine(Line()) mismatch (-want +got):\n%s", diff)
		}
	}
	if _, ok := ParseLine("no answer"); ok {
		t.Error("ParseLine found a line in text without BEGIN=")
	}
}

func FuzzRead(f *testing.F) {
	f.Add("BEGIN codeword: HERON-4821. [at 250] END codeword: OSPREY-3094.", "prompt")
	f.Add("[at 99999999999999999999]", "")
	f.Fuzz(func(t *testing.T, text, prompt string) {
		a := Read(Context{{Kind: KindUserTurn, Text: text}}, prompt)
		if a.Last < -1 {
			t.Fatalf("Last = %d", a.Last)
		}
		b, ok := ParseLine(a.Line())
		if !ok || b != a {
			t.Fatalf("ParseLine(%q) = %+v, %v; want %+v", a.Line(), b, ok, a)
		}
	})
}
