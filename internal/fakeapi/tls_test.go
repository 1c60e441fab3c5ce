package fakeapi

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/instrlab/instrlab/internal/netjail"
)

// TestServeTLS: a client that trusts the run's CA reaches the fake as the
// vendor's host over the TLS socket, and its request is recorded with that
// host; a client that does not is refused, and its handshake recorded with
// the host it asked for and the reason, in memory and in TLSFile.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	s := start(t, Options{Dir: dir, Prompt: testPrompt})
	ca, err := netjail.NewCA([]string{"api.openai.com"})
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(t.TempDir(), "tls.sock")
	if err := s.ServeTLS(sock, ca.ServerConfig()); err != nil {
		t.Fatal(err)
	}
	post := func(roots *x509.CertPool) (int, string, error) {
		tr := &http.Transport{
			TLSClientConfig:   &tls.Config{RootCAs: roots},
			ForceAttemptHTTP2: true,
			DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, "unix", sock)
			},
		}
		defer tr.CloseIdleConnections()
		hc := &http.Client{Transport: tr, Timeout: 20 * time.Second}
		resp, err := hc.Post("https://api.openai.com/v1/chat/completions", "application/json", strings.NewReader(`{"messages":[{"role":"user","content":"x"}]}`))
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	if code, body, err := post(ca.Pool()); err != nil || code != 200 || !strings.Contains(body, "BEGIN=NONE") {
		t.Fatalf("trusting the CA: %d %q %v", code, body, err)
	}
	if _, _, err := post(x509.NewCertPool()); err == nil {
		t.Fatal("a client without the run's CA got through")
	}
	// The server reads the client's alert after the client has gone on.
	for deadline := time.Now().Add(10 * time.Second); len(s.Recorder.Handshakes()) < 2 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	reqs := s.Recorder.Requests()
	if len(reqs) != 1 || reqs[0].Host != "api.openai.com" || reqs[0].API != "openai-chat" {
		t.Errorf("recorded %+v, want one openai-chat request to api.openai.com", reqs)
	}
	want := []Handshake{
		{SNI: "api.openai.com", ALPN: "h2"},
		{SNI: "api.openai.com", Error: "remote error: tls: bad certificate"},
	}
	ignoreTime := cmpopts.IgnoreFields(Handshake{}, "Time")
	if diff := cmp.Diff(want, s.Recorder.Handshakes(), ignoreTime); diff != "" {
		t.Errorf("handshakes mismatch (-want +got):\n%s", diff)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	onFile, warnings, err := ReadHandshakes(filepath.Join(dir, TLSFile))
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if diff := cmp.Diff(want, onFile, ignoreTime); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", TLSFile, diff)
	}
	if h, w, err := ReadHandshakes(filepath.Join(t.TempDir(), TLSFile)); h != nil || w != nil || err != nil {
		t.Errorf("a run without TLS: %v %v %v, want nothing", h, w, err)
	}
}
