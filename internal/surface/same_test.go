package surface

import (
	"testing"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
)

// TestSameTextParts: server-everything's get-structured-content (npm
// @modelcontextprotocol/server-everything, as the lab's log kept its reply
// on 2026-12-03) sends its structuredContent serialized as its content
// text too, as the specification asks. Its structuredContent has no string
// long enough to look for, so it is looked for whole, in the server's order
// of keys (it had been looked for with the keys sorted, never found, and
// the run said the client dropped it); and both parts say that they are
// one text, so that where it arrived does not tell which the client gave.
func TestSameTextParts(t *testing.T) {
	text := `{"temperature":33,"conditions":"Cloudy","humidity":82}`
	reply := `{"result": {"content": [{"type": "text", "text": "{\"temperature\":33,\"conditions\":\"Cloudy\",\"humidity\":82}"}], ` +
		`"structuredContent": {"temperature": 33, "conditions": "Cloudy", "humidity": 82}}, "jsonrpc": "2.0", "id": 4}`
	parts, _, err := Parts([]byte(reply))
	if err != nil || len(parts) != 2 || parts[1].Needle != text {
		t.Fatalf("parts %+v (%v): want the structuredContent's needle %s", parts, err, text)
	}
	ctx := fakeapi.Context{{Kind: fakeapi.KindToolResult, Path: "messages[5].content[0].content", Call: "toolu_1", Text: text}}
	var fs []Found
	for _, p := range parts {
		fs = append(fs, Locate(ctx, "toolu_1", p))
	}
	markSame(fs, parts)
	for i, want := range []string{"structuredContent", "content[0] text"} {
		if !fs[i].Reached || !fs[i].Full || fs[i].SameAs != want {
			t.Errorf("%s: reached %v, full %v, same as %q; want reached whole, the same text as %s", fs[i].Part, fs[i].Reached, fs[i].Full, fs[i].SameAs, want)
		}
	}
	// Parts of their own texts (the lab's codewords) are not the same.
	distinct, _, _ := Parts([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + labvocab.LongToolName(30) + `"}],"structuredContent":{"a":"` + labvocab.LongToolName(40) + `"}}}`))
	fs = []Found{{}, {}}
	markSame(fs, distinct)
	if fs[0].SameAs != "" || fs[1].SameAs != "" {
		t.Errorf("distinct parts marked the same: %+v", fs)
	}
}
