package fakeapi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// A VendorAnswer is the fake's reply, in the direct arm, to a request a
// client sends its vendor's host that is not a model request but that the
// client must have answered before it makes one (an account's user info, a
// list of models): the smallest reply the client's code accepts, read in
// that code by the client's adapter, which says where. It never stands for
// model behaviour. A request no answer matches gets the fake's 404.
type VendorAnswer struct {
	// Host, Method and Path select the request: Host as the client
	// addressed it over TLS (the fake answers no plain request this way).
	Host, Method, Path string
	// Body is the JSON answered with status 200.
	Body json.RawMessage
	// What names the answer in the request's record (its Reply), as
	// "Copilot user info".
	What string
}

// SetVendorAnswers makes the fake give answers to the requests they
// select. Call it before the client starts.
func (s *Server) SetVendorAnswers(answers []VendorAnswer) {
	s.answers = slices.Clone(answers)
}

// vendorAnswer is the answer for r, if one selects it.
func (s *Server) vendorAnswer(r *http.Request) (VendorAnswer, bool) {
	if r.TLS == nil {
		return VendorAnswer{}, false
	}
	i := slices.IndexFunc(s.answers, func(a VendorAnswer) bool {
		return a.Host == strings.TrimSuffix(r.Host, ":443") && a.Method == r.Method && a.Path == r.URL.Path
	})
	if i < 0 {
		return VendorAnswer{}, false
	}
	return s.answers[i], true
}
