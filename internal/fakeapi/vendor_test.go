package fakeapi

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/netjail"
)

// TestVendorAnswers: a vendor answer is given to the request it selects
// over TLS, to its host only, and recorded as one (no API, its name in
// Reply); the same path at another host, or in plain HTTP, gets the 404
// of any unknown path.
func TestVendorAnswers(t *testing.T) {
	s := start(t, Options{Prompt: testPrompt})
	ca, err := netjail.NewCA([]string{"api.github.com", "api.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	s.SetVendorAnswers([]VendorAnswer{{Host: "api.github.com", Method: "GET", Path: "/copilot_internal/user",
		Body: []byte(`{"login":"x"}`), What: "user info"}})
	sock := filepath.Join(t.TempDir(), "tls.sock")
	if err := s.ServeTLS(sock, ca.ServerConfig()); err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: ca.Pool()},
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		},
	}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: 20 * time.Second}
	type got struct {
		Code int
		Body string
	}
	get := func(c *http.Client, url string) got {
		resp, err := c.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			b = nil
		}
		return got{resp.StatusCode, string(b)}
	}
	results := []got{
		get(hc, "https://api.github.com/copilot_internal/user"),
		get(hc, "https://api.example.com/copilot_internal/user"),
		get(http.DefaultClient, s.URL+"/copilot_internal/user"),
	}
	want := []got{{200, `{"login":"x"}`}, {404, ""}, {404, ""}}
	if diff := cmp.Diff(want, results); diff != "" {
		t.Errorf("answers mismatch (-want +got):\n%s", diff)
	}
	var recorded []string
	for _, q := range s.Recorder.Requests() {
		recorded = append(recorded, q.Host+" "+q.API+" "+q.Reply)
	}
	if diff := cmp.Diff([]string{"api.github.com  vendor answer: user info", "api.example.com  ", "  "}, recorded); diff != "" {
		t.Errorf("records mismatch (-want +got):\n%s", diff)
	}
}
