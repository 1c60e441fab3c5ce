package lab

import "testing"

// TestEra: each era's first request and reply name, and which eras each
// -era mode answers.
func TestEra(t *testing.T) {
	if Legacy.Method() != "initialize" || Modern.Method() != "server/discover" {
		t.Errorf("methods %q, %q", Legacy.Method(), Modern.Method())
	}
	if Legacy.Reply() != EraInitialize || Modern.Reply() != EraDiscover {
		t.Errorf("replies %q, %q", Legacy.Reply(), Modern.Reply())
	}
	for _, tt := range []struct {
		mode           string
		legacy, modern bool
	}{{"", true, false}, {EraLegacy, true, false}, {EraDual, true, true}, {EraModern, false, true}} {
		if Speaks(tt.mode, Legacy) != tt.legacy || Speaks(tt.mode, Modern) != tt.modern {
			t.Errorf("-era %q: speaks legacy %v, modern %v; want %v, %v", tt.mode, Speaks(tt.mode, Legacy), Speaks(tt.mode, Modern), tt.legacy, tt.modern)
		}
	}
}
