package analyze

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fakeapi"
)

// TestComparePrefix: what changed first between two requests of one
// conversation, in each API's fields, and how many bytes stayed.
func TestComparePrefix(t *testing.T) {
	for _, tt := range []struct {
		name, api, a, b string
		want            PrefixChange
	}{
		{"appended, cache_control moved", "anthropic-messages",
			`{"system":"S","tools":[{"name":"a"},{"name":"b"}],"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}]}`,
			`{"system":"S","tools":[{"name":"a"},{"name":"b"}],"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]},{"role":"assistant","content":"x","cache_control":{"type":"ephemeral"}}]}`,
			PrefixChange{Same: 82, Of: 82, Stable: true}},
		{"tool order", "anthropic-messages",
			`{"system":"S","tools":[{"name":"a"},{"name":"b"}],"messages":[{"role":"user","content":"hi"}]}`,
			`{"system":"S","tools":[{"name":"b"},{"name":"a"}],"messages":[{"role":"user","content":"hi"},{"role":"user","content":"more"}]}`,
			PrefixChange{Same: 9, Of: 57, Changed: []string{"tool order"}}},
		{"system and a message", "openai-responses",
			`{"instructions":"S1","tools":[{"name":"a"}],"input":[{"role":"user","content":"hi"}]}`,
			`{"instructions":"S2","tools":[{"name":"a"}],"input":[{"role":"user","content":"hey"}]}`,
			PrefixChange{Same: 2, Of: 46, Changed: []string{"system", "messages[0]"}}},
		{"fewer messages", "openai-chat",
			`{"tools":[{"type":"function","function":{"name":"a"}}],"messages":[{"role":"system","content":"S"},{"role":"user","content":"hi"}]}`,
			`{"tools":[{"type":"function","function":{"name":"a"}}],"messages":[{"role":"system","content":"S"}]}`,
			PrefixChange{Same: 74, Of: 104, Changed: []string{"messages"}}},
		{"gemini declarations reordered", "gemini",
			`{"systemInstruction":{"parts":[{"text":"S"}]},"tools":[{"functionDeclarations":[{"name":"a"},{"name":"b"}]}],"contents":[]}`,
			`{"systemInstruction":{"parts":[{"text":"S"}]},"tools":[{"functionDeclarations":[{"name":"b"},{"name":"a"}]}],"contents":[{"role":"user","parts":[{"text":"x"}]}]}`,
			PrefixChange{Same: 35, Of: 50, Changed: []string{"tool order"}}},
		{"a tool added", "gemini",
			`{"tools":[{"functionDeclarations":[{"name":"a"}]}],"contents":[]}`,
			`{"tools":[{"functionDeclarations":[{"name":"a"},{"name":"b"}]}],"contents":[]}`,
			// The earlier bytes all repeat, and yet a tool was added: each
			// part is judged on its own.
			PrefixChange{Same: 14, Of: 14, Changed: []string{"tools"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, err := parsePrefix(tt.api, []byte(tt.a))
			if err != nil {
				t.Fatal(err)
			}
			b, err := parsePrefix(tt.api, []byte(tt.b))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, comparePrefix(a, b)); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCanonical: keys keep their order, cache_control goes at any depth,
// and a value nested too deep or followed by more is an error.
func TestCanonical(t *testing.T) {
	got, err := canonical([]byte(` { "z" : 1, "a" : [ true, null, "<x>" ], "cache_control": {}, "n": {"cache_control": 1, "k": 1.50} } `), nil)
	if err != nil || string(got) != `{"z":1,"a":[true,null,"<x>"],"n":{"k":1.50}}` {
		t.Errorf("canonical = %s, %v", got, err)
	}
	deep := make([]byte, 0, 2*maxDepth+4)
	for range maxDepth + 2 {
		deep = append(deep, '[')
	}
	for range maxDepth + 2 {
		deep = append(deep, ']')
	}
	if _, err := canonical(deep, nil); err == nil {
		t.Error("no error for a value nested too deep")
	}
	if _, err := canonical([]byte(`{} {}`), nil); err == nil {
		t.Error("no error for trailing data")
	}
}

// TestPrefixRealRequests compares the main requests of real runs of the
// sessions matrix's turns3-rotate row (instrlab run -matrix sessions,
// 2026-12-02), trimmed by testdata/sessions/trim.py to the fields the
// comparison reads, each long string cut with its digest kept. The counts
// were computed from the same files by an independent reading in Python
// (json.dumps without cache_control, compact, keys in order).
func TestPrefixRealRequests(t *testing.T) {
	type pair struct {
		From, To, Same, Of int
		Changed            []string
	}
	for _, tt := range []struct {
		file string
		want []pair
	}{
		// Claude Code defers the lab's tools: each loading adds one to the
		// tools; its system message goes from a block list to a string.
		{"claude-code-2.1.332.jsonl", []pair{{1, 2, 13521, 15518, []string{"tools", "messages[1] (same text, another form)"}},
			{2, 3, 16195, 16195, nil}, {3, 4, 14160, 16504, []string{"tools"}}, {4, 5, 17032, 17032, nil}}},
		{"codex-0.171.0.jsonl", []pair{{1, 2, 17251, 17251, nil}, {2, 3, 17658, 17658, nil}}},
		// Request 1, the routing classifier, offers no tools: not a turn.
		{"gemini-0.61.0.jsonl", []pair{{2, 3, 11229, 11229, nil}, {3, 4, 11697, 11697, nil}}},
	} {
		t.Run(tt.file, func(t *testing.T) {
			facts, bodies, ctxs := readRequests(t, filepath.Join("testdata", "sessions", tt.file))
			s, warns := session(facts, bodies, ctxs, served{})
			if s == nil || len(warns) > 0 {
				t.Fatalf("no session: %q", warns)
			}
			var got []pair
			for _, p := range s.Pairs {
				got = append(got, pair{p.From, p.To, p.Same, p.Of, p.Changed})
				if p.Stable != (len(p.Changed) == 0) {
					t.Errorf("%d → %d: stable %v, changed %q", p.From, p.To, p.Stable, p.Changed)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("pairs mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// readRequests reads a file of trimmed requests (testdata/sessions/trim.py)
// as Run does: each request's facts (its sequence number, time, API and
// the tools it defines), body and context.
func readRequests(t *testing.T, path string) ([]RequestFacts, [][]byte, []fakeapi.Context) {
	t.Helper()
	reqs, warns, err := fakeapi.ReadRequests(path)
	if err != nil || len(warns) > 0 {
		t.Fatal(err, warns)
	}
	var facts []RequestFacts
	var bodies [][]byte
	var ctxs []fakeapi.Context
	for _, q := range reqs {
		api, _ := fakeapi.Lookup(q.API)
		ctx, err := api.Context(q.Body)
		if err != nil {
			t.Fatal(err)
		}
		f := RequestFacts{Seq: q.Seq, Time: q.Time, API: q.API}
		for _, s := range ctx {
			if s.Kind == fakeapi.KindToolDefinition {
				f.Tools = append(f.Tools, s.Name)
			}
		}
		facts, bodies, ctxs = append(facts, f), append(bodies, q.Body), append(ctxs, ctx)
	}
	return facts, bodies, ctxs
}
