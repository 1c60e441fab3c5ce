package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A browser page on another site must not reach the local server: a
// non-loopback Origin gets 403 before any MCP handling.
func TestOriginCheck(t *testing.T) {
	url := serveHTTP(t, testStore(t, true), nil, true)
	tests := []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://localhost:3000", http.StatusOK},
		{"http://127.0.0.1", http.StatusOK},
		{"http://[::1]:8080", http.StatusOK},
		{"https://evil.example", http.StatusForbidden},
		{"http://127.0.0.1.evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
	}
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tt := range tests {
		req, err := http.NewRequest("POST", url, strings.NewReader(ping))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("Origin %q: status %d, want %d", tt.origin, resp.StatusCode, tt.want)
		}
	}
}

func TestListenAddr(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{":8080", "127.0.0.1:8080", false},
		{"127.0.0.1:0", "127.0.0.1:0", false},
		{"localhost:9000", "localhost:9000", false},
		{"[::1]:9000", "[::1]:9000", false},
		{"0.0.0.0:8080", "", true},
		{"example.com:80", "", true},
		{"8080", "", true},
	}
	for _, tt := range tests {
		got, err := listenAddr(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("listenAddr(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("listenAddr(%q) mismatch (-want +got):\n%s", tt.in, diff)
		}
	}
}
