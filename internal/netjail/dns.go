package netjail

import (
	"encoding/binary"
	"errors"
	"net"
	"strconv"
	"strings"
)

// A Question is the first question of a DNS query.
type Question struct {
	Name string `json:"name"`
	Type uint16 `json:"type"`
}

// errShort reports a message that ends inside its header or question.
var errShort = errors.New("dns message too short")

// ParseQuery reads the header and first question of a DNS query message.
func ParseQuery(msg []byte) (id uint16, q Question, err error) {
	if len(msg) < 12 {
		return 0, q, errShort
	}
	id = binary.BigEndian.Uint16(msg)
	if binary.BigEndian.Uint16(msg[4:]) == 0 {
		return id, q, errors.New("dns query without a question")
	}
	name, off, err := readName(msg, 12)
	if err != nil {
		return id, q, err
	}
	if off+4 > len(msg) {
		return id, q, errShort
	}
	q = Question{Name: name, Type: binary.BigEndian.Uint16(msg[off:])}
	return id, q, nil
}

// readName reads a domain name at off, following compression pointers a
// bounded number of times, and returns the offset after it.
func readName(msg []byte, off int) (string, int, error) {
	var labels []string
	end := -1
	for jumps := 0; ; {
		if off >= len(msg) {
			return "", 0, errShort
		}
		n := int(msg[off])
		switch {
		case n == 0:
			if end < 0 {
				end = off + 1
			}
			return strings.Join(labels, ".") + ".", end, nil
		case n&0xc0 == 0xc0:
			if off+1 >= len(msg) {
				return "", 0, errShort
			}
			if jumps++; jumps > 16 {
				return "", 0, errors.New("dns name: too many compression pointers")
			}
			if end < 0 {
				end = off + 2
			}
			next := int(binary.BigEndian.Uint16(msg[off:]) & 0x3fff)
			if next >= off {
				// A pointer names an earlier occurrence (RFC 1035 4.1.4):
				// one forward reads past the question, which the answer
				// does not repeat.
				return "", 0, errors.New("dns name: compression pointer forward")
			}
			if next < 12 {
				// A name lives after the header: a pointer into it reads
				// the id and counts as a name, which the answer changes.
				return "", 0, errors.New("dns name: compression pointer into the header")
			}
			off = next
		case n&0xc0 != 0:
			return "", 0, errors.New("dns name: bad label type")
		default:
			if off+1+n > len(msg) {
				return "", 0, errShort
			}
			labels = append(labels, string(msg[off+1:off+1+n]))
			if len(labels) > 127 {
				return "", 0, errors.New("dns name: too many labels")
			}
			off += 1 + n
		}
	}
}

// NXDomain builds the answer "no such name" to query msg, repeating its
// question. It reports false when msg is not a query it can answer.
func NXDomain(msg []byte) ([]byte, bool) { return Reply(msg, nil) }

// Query types the resolver answers for a name it knows.
const (
	typeA    = 1
	typeAAAA = 28
)

// Reply builds the answer to query msg, repeating its question: with ip
// nil, "no such name" (NXDOMAIN); else, for a question of type A, one
// record naming ip, and for any other type none ("no data", so that a
// client asking AAAA first goes on to A). It reports false when msg is not
// a query it can answer.
func Reply(msg []byte, ip net.IP) ([]byte, bool) {
	if len(msg) < 12 || msg[2]&0x80 != 0 {
		return nil, false
	}
	_, q, err := ParseQuery(msg)
	if err != nil {
		return nil, false
	}
	_, end, err := readName(msg, 12)
	if err != nil || end+4 > len(msg) {
		return nil, false
	}
	out := make([]byte, end+4, end+4+16)
	copy(out, msg[:end+4])
	out[2] = 0x80 | msg[2]&0x79 // QR, the query's opcode and RD
	out[3] = 0x80 | 3           // RA, RCODE 3 (NXDOMAIN)
	binary.BigEndian.PutUint16(out[4:], 1)
	clear(out[6:12]) // no answers, authorities or additionals
	if ip == nil {
		return out, true
	}
	out[2] |= 0x04 // AA: the jail's own names
	out[3] = 0x80  // RA, RCODE 0
	if v4 := ip.To4(); v4 != nil && q.Type == typeA {
		binary.BigEndian.PutUint16(out[6:], 1)
		out = append(out, 0xc0, 12, 0, typeA, 0, 1, 0, 0, 0, 60, 0, 4)
		out = append(out, v4...)
	}
	return out, true
}

// TypeName names common query types, as in AAAA.
func TypeName(t uint16) string {
	switch t {
	case 1:
		return "A"
	case 28:
		return "AAAA"
	case 5:
		return "CNAME"
	case 65:
		return "HTTPS"
	case 33:
		return "SRV"
	case 16:
		return "TXT"
	case 12:
		return "PTR"
	}
	return "TYPE" + strconv.Itoa(int(t))
}
