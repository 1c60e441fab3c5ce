package lab

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestWithWriteTimeout: an answer the client stops reading ends with an
// error after the timeout, freeing what it held; one it reads slowly,
// and a stream idle for longer than the timeout between two events, go
// on. On main a client that never read held each answer for as long as
// it kept its connection (100 answers of 4 MB: 2.6 GB held a minute).
func TestWithWriteTimeout(t *testing.T) {
	const d = 200 * time.Millisecond
	ended := make(chan error, 1)
	srv := httptest.NewServer(WithWriteTimeout(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			chunk := []byte(strings.Repeat("x", 64<<10))
			for range 1024 { // 64 MiB, far past any socket buffer
				if _, err := w.Write(chunk); err != nil {
					ended <- err
					return
				}
			}
			ended <- nil
		case "/idle":
			w.(http.Flusher).Flush()
			time.Sleep(3 * d) // idle longer than the timeout
			w.Write([]byte("data: late\n\n"))
			w.(http.Flusher).Flush()
		}
	}), d))
	defer srv.Close()

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write([]byte("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")) // and never read
	select {
	case err := <-ended:
		var ne net.Error
		if err == nil || !errors.As(err, &ne) || !ne.Timeout() {
			t.Errorf("an answer never read ended with %v, want a write timeout", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("an answer never read still held after 10 s")
	}

	resp, err := http.Get(srv.URL + "/idle")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || line != "data: late\n" {
		t.Errorf("a stream idle past the timeout: read %q, %v; want its late event", line, err)
	}
}
