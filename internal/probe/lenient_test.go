package probe

import "testing"

// TestParseMessageLenient: replies the lab's own classifier refuses (as a
// server must) are replies to the probe, as they are to a client: check
// reports no stray output for them.
func TestParseMessageLenient(t *testing.T) {
	for line, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1.0,"result":{}}`:                                kindResponse,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse"}}`: kindError,
		`{"jsonrpc":"2.0","id":1,"result":{},"error":null}`:                     kindResponse,
		`{"jsonrpc":"2.0","id":null,"method":"notifications/message"}`:          kindNotification,
		``:                  kindInvalid,
		`{"jsonrpc":"1.0"}`: kindInvalid,
	} {
		if got := parseMessage([]byte(line)).kind; got != want {
			t.Errorf("parseMessage(%s) = %s, want %s", line, got, want)
		}
	}
}
