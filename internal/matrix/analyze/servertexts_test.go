package analyze

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/lab"
)

// TestServerTextsPrints: the texts a user's server sent are named by
// length and digest as check names what it examined (fingerprint); a
// failed tools/list is an empty list, as check reads it.
func TestServerTextsPrints(t *testing.T) {
	reply := func(method, body string) LabMessage {
		return LabMessage{Dir: lab.Send, Kind: lab.KindResponse, Method: method, Body: json.RawMessage(body)}
	}
	st := serverTexts([]LabMessage{
		reply("initialize", `{"jsonrpc":"2.0","id":1,"result":{"instructions":"Use search."}}`),
		reply("tools/list", `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"boom"}}`),
		reply("initialize", `{"jsonrpc":"2.0","id":3,"result":{"instructions":"a second start"}}`),
	})
	empty := fingerprint.ToolsOf(nil)
	want := ServerTexts{Instructions: map[lab.Reply]string{lab.ReplyInitialize: "Use search."},
		Prints: map[lab.Reply]fingerprint.Text{lab.ReplyInitialize: fingerprint.Of("Use search.")}, ToolsPrint: &empty}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if got, w := st.Print(), "initialize instructions 11 characters, sha256 "+fingerprint.Of("Use search.").SHA256+"; 0 tools, sha256 "+empty.SHA256; got != w {
		t.Errorf("Print() = %q, want %q", got, w)
	}
}
