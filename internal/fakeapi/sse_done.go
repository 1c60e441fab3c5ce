package fakeapi

import (
	"io"
	"net/http"
)

// done writes the "data: [DONE]" line that ends an OpenAI stream.
func (s *sseWriter) done() {
	if s.err != nil {
		return
	}
	_, s.err = io.WriteString(s.w, "data: [DONE]\n\n")
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}
