package matrix

import "testing"

func TestRowServerName(t *testing.T) {
	for in, want := range map[string]string{"": "lab", "server-everything": "server-everything", "my server.v2": "my-server-v2", "../..": "server"} {
		if got := (Row{Server: in}).ServerName(); got != want {
			t.Errorf("Row{Server: %q}.ServerName() = %q, want %q", in, got, want)
		}
	}
}
