package live_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Both eras get the same text: a client probing with server/discover and a
// client forced to initialize, over memory and over both HTTP handlers.
func TestBothErasSameText(t *testing.T) {
	const text = "Answer in the coach's voice."
	tests := []struct {
		name      string
		transport string // memory, stateless, stateful
		version   string
		wantEras  []live.Era
	}{
		{"memory discover", "memory", "", []live.Era{live.Modern}},
		{"memory initialize", "memory", legacyVersion, []live.Era{live.Legacy}},
		{"stateless discover", "stateless", "", []live.Era{live.Modern}},
		{"stateless initialize", "stateless", legacyVersion, []live.Era{live.Legacy}},
		// go-sdk's stateful handler serves the legacy era only: the probe is
		// answered without a modern version and the client falls back. The
		// resolver must run once, for the initialize that counts.
		{"stateful probe falls back", "stateful", "", []live.Era{live.Legacy}},
		{"stateful initialize", "stateful", legacyVersion, []live.Era{live.Legacy}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{text: text}
			s := mcp.NewServer(impl, nil)
			live.Install(s, rec.resolve, nil)
			var got string
			if tt.transport == "memory" {
				got, _ = connectMemory(t, s, tt.version)
			} else {
				got = connectHTTP(t, serveHTTP(t, s, tt.transport == "stateless"), tt.version)
			}
			if got != text {
				t.Errorf("instructions = %q, want %q", got, text)
			}
			if diff := cmp.Diff(tt.wantEras, rec.eras()); diff != "" {
				t.Errorf("resolver eras mismatch (-want +got):\n%s", diff)
			}
			if tt.transport != "memory" {
				for _, c := range rec.seen {
					if c.Header == nil {
						t.Errorf("%s connect: Conn.Header is nil over HTTP", c.Era)
					}
					if tt.transport == "stateful" && c.SessionID == "" {
						t.Errorf("%s connect: Conn.SessionID is empty on a stateful session", c.Era)
					}
				}
			}
		})
	}
}

// The discover reply carries per-connection text, so it must be private;
// the ServerOptions default would mark it public.
func TestDiscoverIsPrivate(t *testing.T) {
	s := mcp.NewServer(impl, nil)
	live.Install(s, func(ctx context.Context, c live.Conn) (string, error) { return "mine", nil }, nil)
	_, traffic := connectMemory(t, s, "")
	var reply string
	for line := range strings.Lines(traffic) {
		if strings.Contains(line, `"supportedVersions"`) {
			reply = line
		}
	}
	if reply == "" {
		t.Fatalf("no server/discover reply in traffic:\n%s", traffic)
	}
	if !strings.Contains(reply, `"cacheScope":"private"`) || !strings.Contains(reply, `"instructions":"mine"`) {
		t.Errorf("discover reply lacks private scope or instructions:\n%s", reply)
	}
}

// The resolver sees who connects: each client gets its own text.
func TestConnDescribesClient(t *testing.T) {
	for _, version := range []string{"", legacyVersion} {
		rec := &recorder{text: "x"}
		s := mcp.NewServer(impl, nil)
		live.Install(s, rec.resolve, nil)
		connectMemory(t, s, version)
		if len(rec.seen) != 1 {
			t.Fatalf("version %q: %d resolutions, want 1", version, len(rec.seen))
		}
		c := rec.seen[0]
		if c.ClientInfo == nil || c.ClientInfo.Name != "client" || c.ProtocolVersion == "" {
			t.Errorf("version %q: Conn = %+v, want client info and a protocol version", version, c)
		}
	}
}
