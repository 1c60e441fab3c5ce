package netjail

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestMain lets the test binary play the two programs of a jail: the
// client inside it (first argument "netjail-client"), which resolves a
// name, dials an outside address and calls the API, plain and as its
// vendor host over TLS; and "jail" itself (NETJAIL_TEST=jail, arguments
// as Wrap makes them).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "netjail-client" {
		_, err := net.LookupHost("telemetry.example.com")
		fmt.Println("lookup failed:", err != nil)
		_, err = net.Dial("tcp", "192.0.2.1:443")
		fmt.Println("outside dial failed:", err != nil)
		for _, url := range []string{"http://" + os.Args[2] + "/v1/ping", "https://api.anthropic.com/v1/ping"} {
			resp, err := http.Get(url) // Go reads SSL_CERT_FILE for the run's CA
			if err != nil {
				fmt.Println("api:", err)
				os.Exit(3)
			}
			b, _ := io.ReadAll(resp.Body)
			fmt.Println("api:", string(b))
		}
		os.Exit(0)
	}
	if os.Getenv("NETJAIL_TEST") == "jail" {
		code, err := Main(os.Args[2:], os.Stderr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// fakeBehindJail serves "pong from HOST" on a Unix socket in dir, plain and
// over TLS with a run's CA for api.anthropic.com, and returns the jail's
// options for a client of both (the plain one at api), the CA's file and
// the options' log.
func fakeBehindJail(t *testing.T, api string) (Options, string) {
	t.Helper()
	dir := t.TempDir()
	ca, err := NewCA([]string{"api.anthropic.com"})
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, ca.PEM(), 0o644); err != nil {
		t.Fatal(err)
	}
	pong := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "pong from "+r.Host) })
	var fw []Forward
	for i, addr := range []string{api, "127.0.0.1:443"} {
		sock := filepath.Join(dir, fmt.Sprintf("api%d.sock", i))
		ln, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			ln = tls.NewListener(ln, ca.ServerConfig())
		}
		srv := &http.Server{Handler: pong, ErrorLog: log.New(io.Discard, "", 0)}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
		fw = append(fw, Forward{Addr: addr, Socket: sock})
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return Options{Self: self, Forwards: fw, Hosts: []string{"api.anthropic.com"}, Log: filepath.Join(dir, "dns.jsonl"), Dir: dir}, caFile
}

// jailed runs argv in a jail made with o, with env added, and returns what
// it printed.
func jailed(t *testing.T, o Options, env []string, argv ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, err := Wrap(ctx, exec.Command(argv[0], argv[1:]...), o)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(append(os.Environ(), "NETJAIL_TEST=jail"), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestJailEndToEnd(t *testing.T) {
	if err := Supported(); err != nil {
		t.Skip(err)
	}
	api := "127.0.0.1:45678" // free in the jail's fresh namespace
	o, caFile := fakeBehindJail(t, api)
	out, err := jailed(t, o, []string{"SSL_CERT_FILE=" + caFile}, o.Self, "netjail-client", api)
	if err != nil {
		t.Fatalf("jail: %v\n%s", err, out)
	}
	want := "lookup failed: true\noutside dial failed: true\napi: pong from " + api + "\napi: pong from api.anthropic.com\n"
	if out != want {
		t.Errorf("client printed %q, want %q", out, want)
	}
	lookups, warnings, err := ReadLookups(o.Log)
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if names := Outside(lookups); len(names) == 0 || !strings.HasPrefix(names[0], "telemetry.example.com") {
		t.Errorf("resolver saw %v outside", names)
	}
	if diff := cmp.Diff([]string{"api.anthropic.com"}, Resolved(lookups)); diff != "" {
		t.Errorf("resolved names mismatch (-want +got):\n%s", diff)
	}
	if b, _ := os.ReadFile("/etc/resolv.conf"); strings.Contains(string(b), "options attempts:1 timeout:1") {
		t.Error("the jail's resolv.conf leaked out of its mount namespace")
	}
}

// TestJailNode: Node's fetch to the vendor host inside the jail reaches
// the fake when NODE_EXTRA_CA_CERTS names the run's CA, and is refused
// for the certificate without it (the run then fails with the reason).
func TestJailNode(t *testing.T) {
	if err := Supported(); err != nil {
		t.Skip(err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	o, caFile := fakeBehindJail(t, "127.0.0.1:45679")
	script := `fetch("https://api.anthropic.com/v1/ping").then(r => r.text()).then(t => console.log(t), e => { console.log("refused:", e.cause && e.cause.code); process.exit(4) })`
	out, err := jailed(t, o, []string{"NODE_EXTRA_CA_CERTS=" + caFile}, node, "-e", script)
	if err != nil || out != "pong from api.anthropic.com\n" {
		t.Errorf("node with NODE_EXTRA_CA_CERTS printed %q, %v; want the fake's pong", out, err)
	}
	out, err = jailed(t, o, nil, node, "-e", script)
	if err == nil || !strings.HasPrefix(out, "refused: ") {
		t.Errorf("node without the CA printed %q, %v; want the certificate refused", out, err)
	}
}
