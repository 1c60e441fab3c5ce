package lab

import "testing"

// TestEra: each era's first request and reply name, and which eras each
// -era mode answers.
func TestEra(t *testing.T) {
	if Legacy.Method() != "initialize" || Modern.Method() != "server/discover" {
		t.Errorf("methods %q, %q", Legacy.Method(), Modern.Method())
	}
	if Legacy.Reply() != ReplyInitialize || Modern.Reply() != ReplyDiscover {
		t.Errorf("replies %q, %q", Legacy.Reply(), Modern.Reply())
	}
	if got := Replies(); len(got) != 2 || got[0] != Legacy.Reply() || got[1] != Modern.Reply() {
		t.Errorf("Replies() = %q, want the legacy era's reply, then the modern's", got)
	}
	for _, tt := range []struct {
		mode           Mode
		legacy, modern bool
	}{{"", true, false}, {ModeLegacy, true, false}, {ModeBoth, true, true}, {ModeModern, false, true}} {
		if tt.mode.Speaks(Legacy) != tt.legacy || tt.mode.Speaks(Modern) != tt.modern {
			t.Errorf("-era %q: speaks legacy %v, modern %v; want %v, %v", tt.mode, tt.mode.Speaks(Legacy), tt.mode.Speaks(Modern), tt.legacy, tt.modern)
		}
	}
}
