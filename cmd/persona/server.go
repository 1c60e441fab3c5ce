package main

import (
	"context"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// version is the persona server's version in its serverInfo.
const version = "v0.1.0"

var impl = &mcp.Implementation{Name: "persona", Title: "Coach persona", Version: version}

// newServer returns the persona server: instructions resolved live from st
// on every connect, the todays_focus tool and the coach prompt. It does no
// I/O; the caller has created the schema (or, in a test, has not).
func newServer(st *coach.Store, opts *live.Options) *mcp.Server {
	return newServerReading(st, st, opts)
}

// newServerReading is newServer with the instructions read from active.
func newServerReading(st *coach.Store, active activeReader, opts *live.Options) *mcp.Server {
	s := mcp.NewServer(impl, nil)
	addFeatures(s, st)
	live.Install(s, instructions(active), opts)
	return s
}

// An activeReader reads the active persona: a *coach.Store, or a
// *schemaStore that first creates the schema startup could not.
type activeReader interface {
	Active(ctx context.Context) (coach.Persona, error)
}

// addFeatures adds the tool and the prompt, which read the active persona
// on every call.
func addFeatures(s *mcp.Server, st *coach.Store) {
	addFocusTool(s, st)
	addCoachPrompt(s, st)
}

// instructions resolves the active persona's text; it is the server's
// live.Resolver.
func instructions(st activeReader) live.Resolver {
	return func(ctx context.Context, c live.Conn) (string, error) {
		p, err := st.Active(ctx)
		return p.Text, err
	}
}
