// Package schematest checks an output against instrlab's schemas with an
// independent, maintained validator (santhosh-tekuri/jsonschema), for
// tests: what a command wrote is validated by code that did not write it.
package schematest

import (
	"bytes"
	"fmt"
	"slices"
	"sync"

	"github.com/instrlab/instrlab/schema"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

var (
	once     sync.Once
	compiled map[string]*jsonschema.Schema
	loadErr  error
)

func load() {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	for _, id := range append(slices.Clone(schema.All), schema.Earlier...) {
		b, err := schema.Files.ReadFile(schema.File(id))
		if err != nil {
			loadErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			loadErr = fmt.Errorf("reading schema %s: %w", id, err)
			return
		}
		if err := c.AddResource(id, doc); err != nil {
			loadErr = fmt.Errorf("adding schema %s: %w", id, err)
			return
		}
	}
	compiled = map[string]*jsonschema.Schema{}
	for _, id := range append(slices.Clone(schema.All), schema.Earlier...) {
		s, err := c.Compile(id)
		if err != nil {
			loadErr = fmt.Errorf("compiling schema %s: %w", id, err)
			return
		}
		compiled[id] = s
	}
}

// Validate checks data, one JSON document, against the schema id.
func Validate(id string, data []byte) error {
	once.Do(load)
	if loadErr != nil {
		return loadErr
	}
	s, ok := compiled[id]
	if !ok {
		return fmt.Errorf("no schema %s", id)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("reading the output: %w", err)
	}
	return s.Validate(v)
}
