package netjail

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
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
	// Answer is what a name the jail knows was answered: Loopback for a
	// question of type A, NoData for any other. A name the jail does not
	// know has none: it was answered NXDOMAIN.
	Answer string `json:"answer,omitempty"`
}

// What the log says a known name was answered (Lookup.Answer).
const (
	Loopback = "127.0.0.1"
	NoData   = "no data"
)

// A Resolver answers the names it knows (the direct arm's vendor hosts)
// with 127.0.0.1, every other DNS question NXDOMAIN, and logs each.
type Resolver struct {
	mu    sync.Mutex
	log   io.Writer
	hosts map[string]bool
	udp   net.PacketConn
	tcp   net.Listener
}

// ListenResolver serves DNS on addr (UDP and TCP), logging to log; the
// names of hosts (in any case, with or without the final dot) resolve to
// 127.0.0.1.
func ListenResolver(addr string, log io.Writer, hosts ...string) (*Resolver, error) {
	udp, err := net.ListenPacket("udp", addr)
	if err != nil {
		return nil, fmt.Errorf("resolver: %w", err)
	}
	tcp, err := net.Listen("tcp", addr)
	if err != nil {
		udp.Close()
		return nil, fmt.Errorf("resolver: %w", err)
	}
	r := &Resolver{log: log, hosts: map[string]bool{}, udp: udp, tcp: tcp}
	for _, h := range hosts {
		r.hosts[hostKey(h)] = true
	}
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

// hostKey is a name as the resolver compares it: lower case, without the
// final dot.
func hostKey(name string) string { return strings.ToLower(strings.TrimSuffix(name, ".")) }

// answer logs msg's question and returns the reply, or nil.
func (r *Resolver) answer(msg []byte, proto string) []byte {
	_, q, err := ParseQuery(msg)
	l := Lookup{Time: time.Now().UTC(), Name: q.Name, Type: TypeName(q.Type), Proto: proto}
	var ip net.IP
	if err == nil && r.hosts[hostKey(q.Name)] {
		ip, l.Answer = net.IPv4(127, 0, 0, 1), NoData
		if q.Type == typeA {
			l.Answer = Loopback
		}
	}
	out, ok := Reply(msg, ip)
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
	f, err := jsonl.Open(path)
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
	return names(lookups, func(Lookup) bool { return true })
}

// Outside lists the distinct names the jail did not know (answered
// NXDOMAIN), as Names does.
func Outside(lookups []Lookup) []string {
	return names(lookups, func(l Lookup) bool { return l.Answer == "" })
}

// Resolved lists the distinct names the jail resolved to the fake (the
// direct arm's vendor hosts), as Names does.
func Resolved(lookups []Lookup) []string {
	return names(lookups, func(l Lookup) bool { return l.Answer != "" })
}

func names(lookups []Lookup, keep func(Lookup) bool) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lookups {
		if !keep(l) {
			continue
		}
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
