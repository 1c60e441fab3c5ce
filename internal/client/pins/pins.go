// Package pins holds the one table of the versions -client NAME runs when
// it names no version: every client package takes its DefaultVersion from
// here, so a bump is one line of pins.json. The pins follow the newest
// release of each client that the atlas has run (docs/clients.md, "Pinned
// versions"). The atlas workflow proposes the bumps: its watch lists the
// newer releases of each pinned client (ListNewer, Summary; the command
// internal/client/pins/propose) for the sweep, and its merge job bumps the
// pins to the newest releases the sweep ran (Bumps, Write).
package pins

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/instrlab/instrlab/internal/version"
)

//go:embed pins.json
var file []byte

// File is pins.json's path in the repository, for the tools that edit it.
const File = "internal/client/pins/pins.json"

var table = mustParse(file)

func mustParse(b []byte) map[string]string {
	t, err := Parse(b)
	if err != nil {
		panic(err) // the embedded table; TestTable reads it first
	}
	return t
}

// Parse reads a pins table: a JSON object of client name to version. A
// version that is not a semantic version is an error naming the client.
func Parse(b []byte) (map[string]string, error) {
	var t map[string]string
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("reading the pins: %w", err)
	}
	for name, v := range t {
		if !version.Valid(v) {
			return nil, fmt.Errorf("reading the pins: %s: %q is not a version", name, v)
		}
	}
	return t, nil
}

// Version is the pinned version of the client named name, "" for a client
// with no pin.
func Version(name string) string { return table[name] }

// All returns a copy of the table.
func All() map[string]string { return maps.Clone(table) }

// A Bump is a pin that the atlas has run a newer release of.
type Bump struct {
	Client   string `json:"client"`
	From, To string
}

func (b Bump) String() string { return b.Client + " " + b.From + " → " + b.To }

// Bumps lists, sorted by client, the pins in pins that newest (each
// client's newest release the atlas has run) is newer than. A client the
// atlas has not run keeps its pin, and no pin is ever moved back.
func Bumps(pins, newest map[string]string) []Bump {
	var out []Bump
	for _, name := range slices.Sorted(maps.Keys(pins)) {
		to, ok := newest[name]
		if ok && version.Valid(to) && version.Compare(to, pins[name]) > 0 {
			out = append(out, Bump{Client: name, From: pins[name], To: to})
		}
	}
	return out
}

// Write encodes a pins table as pins.json holds it: sorted, two-space
// indented, one client a line.
func Write(pins map[string]string) []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	names := slices.Sorted(maps.Keys(pins))
	for i, name := range names {
		k, _ := json.Marshal(name)
		v, _ := json.Marshal(pins[name])
		fmt.Fprintf(&b, "  %s: %s", k, v)
		if i < len(names)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes()
}
