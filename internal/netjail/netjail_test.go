package netjail

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// query builds a DNS query for name and type t.
func query(id uint16, name string, t uint16) []byte {
	b := []byte{byte(id >> 8), byte(id), 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0}
	for _, l := range strings.Split(strings.TrimSuffix(name, "."), ".") {
		b = append(b, byte(len(l)))
		b = append(b, l...)
	}
	b = append(b, 0, byte(t>>8), byte(t), 0, 1)
	return b
}

func TestParseQueryAndNXDomain(t *testing.T) {
	q := query(0xbeef, "registry.npmjs.org", 28)
	id, got, err := ParseQuery(q)
	if err != nil || id != 0xbeef {
		t.Fatalf("ParseQuery: %x %v", id, err)
	}
	if diff := cmp.Diff(Question{Name: "registry.npmjs.org.", Type: 28}, got); diff != "" {
		t.Errorf("question mismatch (-want +got):\n%s", diff)
	}
	out, ok := NXDomain(q)
	if !ok {
		t.Fatal("NXDomain refused a query")
	}
	if binary.BigEndian.Uint16(out) != 0xbeef || out[2]&0x80 == 0 || out[2]&0x01 == 0 || out[3]&0x0f != 3 {
		t.Errorf("header % x: want the id, QR, RD and RCODE 3", out[:4])
	}
	if !bytes.Equal(out[12:], q[12:]) || binary.BigEndian.Uint16(out[6:]) != 0 {
		t.Errorf("answer does not repeat the question alone: % x", out)
	}
	if _, ok := NXDomain(out); ok {
		t.Error("NXDomain answered a response")
	}
	// A compression pointer that loops is refused, not followed forever.
	loop := append(query(1, "a", 1)[:12], 0xc0, 12, 0, 1, 0, 1)
	if _, _, err := ParseQuery(loop); err == nil {
		t.Error("ParseQuery followed a pointer loop")
	}
	// A pointer into the header reads the id and counts as a name, which
	// the answer's header changes (found by FuzzParseQuery): refused.
	header := append(query(1, "a", 1)[:12], 0xc0, 0, 0, 1, 0, 1)
	if _, _, err := ParseQuery(header); err == nil {
		t.Error("ParseQuery read a name in the header")
	}
	// A pointer forward, to a name after the question, reads bytes the
	// answer does not repeat (found by FuzzParseQuery, 2026-12-06):
	// refused.
	forward := append(query(1, "a", 1)[:12], 0xc0, 18, 0, 1, 0, 1, 1, 'b', 0)
	if _, _, err := ParseQuery(forward); err == nil {
		t.Error("ParseQuery followed a pointer forward")
	}
	for _, bad := range [][]byte{nil, q[:11], q[:14], append(q[:4:4], 0, 0)} {
		if _, _, err := ParseQuery(bad); err == nil {
			t.Errorf("ParseQuery(% x) accepted a broken message", bad)
		}
	}
}

func TestResolverLogsAndAnswers(t *testing.T) {
	var mu sync.Mutex
	var log bytes.Buffer
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return log.Write(p) })
	r, err := ListenResolver("127.0.0.1:0", w)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	c, err := net.Dial("udp", r.udp.LocalAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write(query(7, "api.openai.com", 1)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 512)
	n, err := c.Read(buf)
	if err != nil || buf[3]&0x0f != 3 {
		t.Fatalf("udp answer % x, %v", buf[:n], err)
	}
	tc, err := net.Dial("tcp", r.tcp.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	_ = tc.SetDeadline(time.Now().Add(5 * time.Second))
	m := query(8, "play.googleapis.com", 28)
	if _, err := tc.Write(append([]byte{0, byte(len(m))}, m...)); err != nil {
		t.Fatal(err)
	}
	var size [2]byte
	if _, err := io.ReadFull(tc, size[:]); err != nil {
		t.Fatal(err)
	}
	ans := make([]byte, binary.BigEndian.Uint16(size[:]))
	if _, err := io.ReadFull(tc, ans); err != nil || ans[3]&0x0f != 3 {
		t.Fatalf("tcp answer % x, %v", ans, err)
	}
	path := filepath.Join(t.TempDir(), "dns.jsonl")
	mu.Lock()
	err = os.WriteFile(path, append(log.Bytes(), "not json\n"...), 0o644)
	mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	lookups, warnings, err := ReadLookups(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lookups {
		got = append(got, l.Name+" "+l.Type+" "+l.Proto)
	}
	if diff := cmp.Diff([]string{"api.openai.com. A udp", "play.googleapis.com. AAAA tcp"}, got); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "dns.jsonl:3:") {
		t.Errorf("warnings %q", warnings)
	}
	if diff := cmp.Diff([]string{"api.openai.com", "play.googleapis.com"}, Names(append(lookups, lookups...))); diff != "" {
		t.Errorf("Names mismatch (-want +got):\n%s", diff)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestForward(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "s")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		w.Write(append([]byte("got "), b...))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	f, err := ForwardTo("127.0.0.1:0", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	resp, err := http.Post("http://"+f.ln.Addr().String()+"/x", "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "got hello" {
		t.Errorf("forwarded reply %q", b)
	}
}

func TestHostsFilesDNS(t *testing.T) {
	in := "passwd: files\nhosts:          files resolve [!UNAVAIL=return] dns myhostname\nnetworks: files\n"
	want := "passwd: files\nhosts: files dns\nnetworks: files\n"
	if got := HostsFilesDNS(in); got != want {
		t.Errorf("HostsFilesDNS = %q, want %q", got, want)
	}
	if got := HostsFilesDNS("passwd: files"); got != "passwd: files\nhosts: files dns" {
		t.Errorf("HostsFilesDNS without hosts = %q", got)
	}
}

func TestWrapArgs(t *testing.T) {
	o := Options{Self: "/bin/instrlab", Forwards: []Forward{{"127.0.0.1:4321", "/tmp/s"}, {"127.0.0.1:443", "/tmp/t"}},
		Hosts: []string{"api.openai.com"}, Log: "/r/dns.jsonl", Dir: "/r/jail"}
	want := []string{"jail", "-forward", "127.0.0.1:4321=/tmp/s", "-forward", "127.0.0.1:443=/tmp/t", "-host", "api.openai.com",
		"-log", "/r/dns.jsonl", "-dir", "/r/jail", "--", "/bin/codex", "exec"}
	if diff := cmp.Diff(want, o.Args([]string{"/bin/codex", "exec"})); diff != "" {
		t.Errorf("Args mismatch (-want +got):\n%s", diff)
	}
}

func FuzzParseQuery(f *testing.F) {
	f.Add(query(1, "example.com", 1))
	f.Add([]byte{0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12})
	f.Fuzz(func(t *testing.T, msg []byte) {
		_, q, err := ParseQuery(msg)
		out, ok := NXDomain(msg)
		if ok {
			if err != nil {
				t.Fatalf("answered a query ParseQuery refused: %v", err)
			}
			if _, q2, err := ParseQuery(append(append([]byte{}, out[:2]...), append([]byte{0x01, 0}, out[4:]...)...)); err != nil || q2 != q {
				t.Fatalf("answer's question %v, %v; want %v", q2, err, q)
			}
		}
	})
}
