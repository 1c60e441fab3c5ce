package netjail

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/jsonl"
)

// A Lookup is one question the resolver was asked, as logged.
type Lookup struct {
	Time  time.Time `json:"time"`
	Name  string    `json:"name"`
	Type  string    `json:"type"`
	Proto string    `json:"proto"`
}

// A Resolver answers every DNS question NXDOMAIN and logs it.
type Resolver struct {
	mu  sync.Mutex
	log io.Writer
	udp net.PacketConn
	tcp net.Listener
}

// ListenResolver serves DNS on addr (UDP and TCP), logging to log.
func ListenResolver(addr string, log io.Writer) (*Resolver, error) {
	udp, err := net.ListenPacket("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("resolver: %w", err)
	}
	tcp, err := net.Listen("tcp", addr)
	if err != nil {
		udp.Close()
		return nil, fmt.Errorf("resolver: %w", err)
	}
	r := &Resolver{log: log, udp: udp, tcp: tcp}
	go r.serveUDP()
	go r.serveTCP()
	return r, nil
}

// Close stops serving.
func (r *Resolver) Close() error {
	return errors.Join(r.udp.Close(), r.tcp.Close())
}

func (r *Resolver) serveUDP() {
	buf := make([]byte, 4096)
	for {
		n, from, err := r.udp.ReadFrom(buf)
		if err != nil {
			return
		}
		if out := r.answer(buf[:n], "udp"); out != nil {
			_, _ = r.udp.WriteTo(out, from)
		}
	}
}

func (r *Resolver) serveTCP() {
	for {
		c, err := r.tcp.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			_ = c.SetDeadline(time.Now().Add(10 * time.Second))
			for {
				var size [2]byte
				if _, err := io.ReadFull(c, size[:]); err != nil {
					return
				}
				msg := make([]byte, binary.BigEndian.Uint16(size[:]))
				if _, err := io.ReadFull(c, msg); err != nil {
					return
				}
				out := r.answer(msg, "tcp")
				if out == nil {
					return
				}
				binary.BigEndian.PutUint16(size[:], uint16(len(out)))
				if _, err := c.Write(append(size[:], out...)); err != nil {
					return
				}
			}
		}()
	}
}

// answer logs msg's question and returns the NXDOMAIN reply, or nil.
func (r *Resolver) answer(msg []byte, proto string) []byte {
	out, ok := NXDomain(msg)
	_, q, err := ParseQuery(msg)
	l := Lookup{Time: time.Now().UTC(), Name: q.Name, Type: TypeName(q.Type), Proto: proto}
	if err != nil {
		l.Name, l.Type = "", "unreadable: "+err.Error()
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(l)
	r.mu.Lock()
	_, _ = r.log.Write(b.Bytes())
	r.mu.Unlock()
	if !ok {
		return nil
	}
	return out
}

// ReadLookups reads a resolver log. A line that does not parse is a
// warning "file:line: message".
func ReadLookups(path string) ([]Lookup, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("opening resolver log: %w", err)
	}
	defer f.Close()
	l, w := jsonl.Decode[Lookup](f, path)
	return l, w, nil
}

// Names lists the distinct names of lookups, without the final dot, in
// the order first asked.
func Names(lookups []Lookup) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lookups {
		n := l.Name
		if len(n) > 1 && n[len(n)-1] == '.' {
			n = n[:len(n)-1]
		}
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}
