// Package schema is instrlab's output contract: the JSON Schemas (draft
// 2020-12) of what its commands write for machines to read, embedded, and
// the identifier each output names in its "$schema" field.
//
// An identifier carries its major version (check.v1.json). Within a major
// version a field is only ever added; one removed, renamed, retyped or made
// optional is a new major version under a new identifier (docs/schema.md).
package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
)

// Base is where the schemas are published (the atlas site serves them,
// instrlab report -format site), and the prefix of every identifier.
const Base = "https://instrlab.github.io/instrlab/schema/"

// The identifiers of the outputs, each an output's "$schema" value.
const (
	// Check is check -json (and -format json): the report, or the error
	// object check prints instead of one.
	Check = Base + "check.v2.json"
	// Results is run's and report's results.json (and -format json).
	Results = Base + "results.v2.json"
	// Diff is diff -json.
	Diff = Base + "diff.v2.json"
	// Atlas is a sweep's atlas.json (and report -format json on a sweep).
	Atlas = Base + "atlas.v2.json"
	// Capabilities is the atlas site's capabilities.json: the atlas in
	// the community client-capabilities list's shape.
	Capabilities = Base + "capabilities.v2.json"
	// Compat is the client reference's compat.json: its facts in
	// browser-compat-data's shape.
	Compat = Base + "compat.v2.json"
	// Presets is the client reference's presets.json: per client version,
	// the flags a generated server adapts its schemas and names to.
	Presets = Base + "presets.v2.json"
)

// Files holds the schemas, named as their identifiers end.
//
//go:embed *.json
var Files embed.FS

// All are the identifiers of every schema the outputs are written to now,
// in a fixed order.
var All = []string{Check, Results, Diff, Atlas, Capabilities, Compat, Presets}

// Earlier are the identifiers of the versions an output was written to
// before its current one: their schemas stay, frozen, so that what a
// version wrote still validates (docs/schema.md says what changed).
var Earlier = []string{
	Base + "check.v1.json", Base + "results.v1.json", Base + "diff.v1.json",
	Base + "atlas.v1.json", Base + "capabilities.v1.json", Base + "presets.v1.json",
	Base + "compat.v1.json",
}

// File is the name under Files of the schema id names.
func File(id string) string { return id[len(Base):] }

// Named wraps v, a value that encodes as a JSON object, so that it encodes
// with "$schema": id as its first member: how each output names its schema.
func Named(id string, v any) json.Marshaler { return named{id, v} }

type named struct {
	id string
	v  any
}

// CompactJSON is MarshalJSON, whose text is compact as json.Marshal
// writes it: untrusted.Marshal takes it as it is.
func (n named) CompactJSON() ([]byte, error) { return n.MarshalJSON() }

func (n named) MarshalJSON() ([]byte, error) {
	// v is encoded after "$schema", and its opening brace becomes the
	// comma between them: a check's report is 300 KB, copied once less.
	id, _ := json.Marshal(n.id)
	b := bytes.NewBuffer(append([]byte(`{"$schema":`), id...))
	at := b.Len()
	if err := json.NewEncoder(b).Encode(n.v); err != nil {
		return nil, err
	}
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	switch body := out[at:]; {
	case len(body) < 2 || body[0] != '{':
		return nil, fmt.Errorf("naming schema %s: the output is not a JSON object", n.id)
	case string(body) == "{}":
		return append(out[:at], '}'), nil
	}
	out[at] = ','
	return out, nil
}
