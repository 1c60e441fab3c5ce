package fakeapi

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

func TestServeUnix(t *testing.T) {
	s := start(t, Options{Prompt: testPrompt})
	sock := filepath.Join(t.TempDir(), "api.sock")
	if err := s.ServeUnix(sock); err != nil {
		t.Fatal(err)
	}
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	resp, err := hc.Post("http://127.0.0.1:1/v1/chat/completions", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "BEGIN=NONE") {
		t.Errorf("reply %d %s", resp.StatusCode, b)
	}
	if reqs := s.Recorder.Requests(); len(reqs) != 1 || reqs[0].API != "openai-chat" {
		t.Errorf("recorded %+v", reqs)
	}
}
