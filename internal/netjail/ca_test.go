package netjail

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// serveTLS serves "hello from HOST" with ca's server configuration on a
// loopback port, and returns its address.
func serveTLS(t *testing.T, ca *CA) string {
	t.Helper()
	ln, err := tls.Listen("tcp", "127.0.0.1:0", ca.ServerConfig())
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello from "+r.Host+" over "+r.Proto)
	}), ErrorLog: log.New(io.Discard, "", 0)} // the refusals below are expected
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// TestCA: a Go TLS client that trusts the run's authority reaches the
// fake as the vendor host, over HTTP/2; one that does not, or that asks
// for a host the certificate does not name, is refused.
func TestCA(t *testing.T) {
	hosts := []string{"api.anthropic.com", "api.openai.com"}
	ca, err := NewCA(hosts)
	if err != nil {
		t.Fatal(err)
	}
	addr := serveTLS(t, ca)
	get := func(host string, roots *x509.CertPool) (string, error) {
		tr := &http.Transport{
			TLSClientConfig:   &tls.Config{RootCAs: roots},
			ForceAttemptHTTP2: true,
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			},
		}
		defer tr.CloseIdleConnections()
		resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Get("https://" + host + "/v1/ping")
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	for _, h := range hosts {
		got, err := get(h, ca.Pool())
		if err != nil || got != "hello from "+h+" over HTTP/2.0" {
			t.Errorf("GET https://%s/ trusting the run's CA = %q, %v", h, got, err)
		}
	}
	var unknown x509.UnknownAuthorityError
	if _, err := get("api.anthropic.com", x509.NewCertPool()); !errors.As(err, &unknown) {
		t.Errorf("a client without the run's CA: err %v, want x509.UnknownAuthorityError", err)
	}
	var invalid x509.HostnameError
	if _, err := get("generativelanguage.googleapis.com", ca.Pool()); !errors.As(err, &invalid) {
		t.Errorf("a host the certificate does not name: err %v, want x509.HostnameError", err)
	}

	// The PEM is the authority's certificate alone, never a key, and
	// another run's authority does not vouch for this one's server.
	block, rest := pem.Decode(ca.PEM())
	if block == nil || block.Type != "CERTIFICATE" || len(bytes.TrimSpace(rest)) != 0 {
		t.Fatalf("PEM holds %v and %d more bytes, want one CERTIFICATE", block, len(rest))
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil || !cert.IsCA {
		t.Fatalf("PEM's certificate: %v, IsCA %v", err, cert != nil && cert.IsCA)
	}
	other, err := NewCA(hosts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := get("api.openai.com", other.Pool()); !errors.As(err, &unknown) {
		t.Errorf("another run's CA: err %v, want x509.UnknownAuthorityError", err)
	}
	if _, err := NewCA(nil); err == nil {
		t.Error("NewCA(nil) made a certificate for no host")
	}
}

// TestResolverKnownHosts asks the resolver with Go's own DNS client: the
// jail's hosts (in any case, with a final dot or not) resolve to 127.0.0.1
// and are logged with their answer; others are "no such host", logged
// without one; Outside and Resolved split the log.
func TestResolverKnownHosts(t *testing.T) {
	var mu sync.Mutex
	var log bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return log.Write(p) })
	r, err := ListenResolver("127.0.0.1:0", w, "API.Anthropic.com.", "api.openai.com")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	res := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "udp", r.udp.LocalAddr().String())
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, h := range []string{"api.anthropic.com", "API.OPENAI.COM."} {
		addrs, err := res.LookupHost(ctx, h)
		if diff := cmp.Diff([]string{"127.0.0.1"}, addrs); err != nil || diff != "" {
			t.Errorf("LookupHost(%s) = %v, %v; mismatch (-want +got):\n%s", h, addrs, err, diff)
		}
	}
	_, err = res.LookupHost(ctx, "statsig.anthropic.com")
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Errorf("LookupHost(statsig.anthropic.com) err = %v, want not found", err)
	}
	mu.Lock()
	lookups, warnings := decodeLookups(t, log.Bytes())
	mu.Unlock()
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	answers := map[string]string{}
	for _, l := range lookups {
		answers[strings.ToLower(l.Name)+" "+l.Type] = l.Answer
	}
	want := map[string]string{
		"api.anthropic.com. A": Loopback, "api.anthropic.com. AAAA": NoData,
		"api.openai.com. A": Loopback, "api.openai.com. AAAA": NoData,
		"statsig.anthropic.com. A": "", "statsig.anthropic.com. AAAA": "",
	}
	if diff := cmp.Diff(want, answers); diff != "" {
		t.Errorf("logged answers mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"statsig.anthropic.com"}, Outside(lookups)); diff != "" {
		t.Errorf("Outside mismatch (-want +got):\n%s", diff)
	}
	if got := Resolved(lookups); len(got) != 2 {
		t.Errorf("Resolved = %v, want the two known hosts", got)
	}
}

// TestReplyA: an A answer carries one record of 127.0.0.1 that a strict
// reader takes apart; other types of a known name have none.
func TestReplyA(t *testing.T) {
	q := query(9, "api.openai.com", typeA)
	out, ok := Reply(q, net.IPv4(127, 0, 0, 1))
	if !ok || out[3]&0x0f != 0 || out[7] != 1 {
		t.Fatalf("Reply: % x, %v; want RCODE 0 and one answer", out, ok)
	}
	if !bytes.HasSuffix(out, []byte{0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1}) {
		t.Errorf("answer record % x, want a pointer to the question's name, A IN, TTL 60, 127.0.0.1", out[len(q):])
	}
	out, ok = Reply(query(9, "api.openai.com", typeAAAA), net.IPv4(127, 0, 0, 1))
	if !ok || out[3]&0x0f != 0 || out[6] != 0 || out[7] != 0 {
		t.Errorf("AAAA: % x, want no data (RCODE 0, no answers)", out)
	}
}

func decodeLookups(t *testing.T, b []byte) ([]Lookup, []string) {
	t.Helper()
	path := t.TempDir() + "/dns.jsonl"
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	l, w, err := ReadLookups(path)
	if err != nil {
		t.Fatal(err)
	}
	return l, w
}
