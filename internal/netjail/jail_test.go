package netjail

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain lets the test binary play the two programs of a jail: the
// client inside it (first argument "netjail-client"), which resolves a
// name, dials an outside address and calls the API; and "jail" itself
// (NETJAIL_TEST=jail, arguments as Wrap makes them).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "netjail-client" {
		_, err := net.LookupHost("telemetry.example.com")
		fmt.Println("lookup failed:", err != nil)
		_, err = net.Dial("tcp", "192.0.2.1:443")
		fmt.Println("outside dial failed:", err != nil)
		resp, err := http.Get("http://" + os.Args[2] + "/v1/ping")
		if err != nil {
			fmt.Println("api:", err)
			os.Exit(3)
		}
		b, _ := io.ReadAll(resp.Body)
		fmt.Println("api:", string(b))
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

func TestJailEndToEnd(t *testing.T) {
	if err := Supported(); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "api.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "pong") })}
	go srv.Serve(ln)
	defer srv.Close()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	api := "127.0.0.1:45678" // free in the jail's fresh namespace
	o := Options{Self: self, API: api, Socket: sock, Log: filepath.Join(dir, "dns.jsonl"), Dir: dir}
	cmd, err := Wrap(context.Background(), exec.Command(self, "netjail-client", api), o)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Env = append(os.Environ(), "NETJAIL_TEST=jail")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("jail: %v\n%s", err, out)
	}
	want := "lookup failed: true\noutside dial failed: true\napi: pong\n"
	if string(out) != want {
		t.Errorf("client printed %q, want %q", out, want)
	}
	lookups, warnings, err := ReadLookups(o.Log)
	if err != nil || len(warnings) > 0 {
		t.Fatal(err, warnings)
	}
	if names := Names(lookups); len(names) == 0 || !strings.HasPrefix(names[0], "telemetry.example.com") {
		t.Errorf("resolver saw %v", names)
	}
	if b, _ := os.ReadFile("/etc/resolv.conf"); strings.Contains(string(b), "options attempts:1 timeout:1") {
		t.Error("the jail's resolv.conf leaked out of its mount namespace")
	}
}
