package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// sseWriter writes server-sent events and remembers the first error.
type sseWriter struct {
	w   http.ResponseWriter
	err error
}

func newSSE(w http.ResponseWriter) *sseWriter {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sseWriter{w: w}
}

// event writes one event whose data is v as JSON; an empty name writes a
// data-only event.
func (s *sseWriter) event(name string, v any) {
	if s.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		s.err = err
		return
	}
	if name != "" {
		_, s.err = fmt.Fprintf(s.w, "event: %s\ndata: %s\n\n", name, data)
	} else {
		_, s.err = fmt.Fprintf(s.w, "data: %s\n\n", data)
	}
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}
