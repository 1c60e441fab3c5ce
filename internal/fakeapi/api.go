package fakeapi

import (
	"net/http"
)

// An API is one wire shape of a model API: which requests it serves, how
// its request bodies decode into a Context, and how it writes a Reply.
type API interface {
	// Name names the shape, as in "anthropic-messages".
	Name() string
	// Match reports whether the shape serves a request.
	Match(method, path string) bool
	// Context decodes a request body. It accepts any JSON object and skips
	// what it does not know.
	Context(body []byte) (Context, error)
	// Write sends reply to the request for path with body, streaming when
	// the body asks.
	Write(w http.ResponseWriter, path string, body []byte, reply Reply) error
}

// apis lists the shapes a fake serves.
var apis = []API{Anthropic{}, OpenAIResponses{}, OpenAIChat{}, Gemini{}}

// Lookup returns the API named name.
func Lookup(name string) (API, bool) {
	for _, a := range apis {
		if a.Name() == name {
			return a, true
		}
	}
	return nil, false
}
