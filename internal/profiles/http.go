package profiles

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// An HTTPView is what a client does with a server over Streamable HTTP,
// in its default way of running, as measured in runs of the lab served
// over HTTP (the cross matrix's http rows): the handshake, what it keeps
// of the text and where it puts it, and what only HTTP has (the
// DiscoverResult's cache fields, sessions). A profile without one was
// not measured over HTTP, and check says so for a URL rather than apply
// the stdio values.
type HTTPView struct {
	// Runs is how many runs over HTTP the view is made of.
	Runs int `json:"runs"`
	// Probe says every run sent server/discover first.
	Probe        bool   `json:"probe"`
	Instructions Limit  `json:"instructions"`
	Render       Render `json:"render"`
	// Discover is the shape of the client's server/discover request (the
	// keys of its params, as analyze.HTTPFacts.DiscoverShape), "" when it
	// sent none.
	Discover string `json:"discover,omitempty"`
	// Cache is what it did with the DiscoverResult's ttlMs and
	// cacheScope, and Sessions what the server's log shows of its
	// sessions (Mcp-Session-Id) and resumption, in plain words from
	// counts.
	Cache    string `json:"cache"`
	Sessions string `json:"sessions"`
	// Note says which runs show what, in plain words.
	Note       string   `json:"note"`
	Unmeasured []string `json:"unmeasured,omitempty"`
}

// NoHTTPView is what check says of a client whose profile has no HTTP
// view, for a server it reaches by URL.
const NoHTTPView = "over Streamable HTTP not measured: this client version's profile has no HTTP view (no run of the lab over HTTP)"

// OverHTTP is p as it holds for a server reached over Streamable HTTP:
// the HTTP view's handshake, limit and rendering in place of the stdio
// ones, and its unmeasured items in place of those about HTTP. ok is false
// when p has no HTTP view.
func (p Profile) OverHTTP() (q Profile, ok bool) {
	if p.HTTP == nil {
		return p, false
	}
	q = p
	q.Handshake.ProbeHTTP = p.HTTP.Probe
	q.Instructions, q.Render = p.HTTP.Instructions, p.HTTP.Render
	q.Unmeasured = slices.DeleteFunc(slices.Clone(p.Unmeasured), func(u string) bool {
		return strings.Contains(u, "Streamable HTTP") || unmeasuredInVariant(u, false)
	})
	q.Unmeasured = append(q.Unmeasured, p.HTTP.Unmeasured...)
	// What it does with asks and announcements over HTTP: the protocol
	// rows' over HTTP (in each era), or not measured; never the stdio
	// runs'.
	q.Protocol = nil
	if p.Protocol != nil && (len(p.Protocol.HTTP) > 0 || len(p.Protocol.ModernHTTP) > 0) {
		q.Protocol = &Protocol{Runs: p.Protocol.Runs, Facts: p.Protocol.HTTP, Modern: p.Protocol.ModernHTTP}
	}
	return q, true
}

// validateHTTP reports what makes p's HTTP view unusable.
func (p Profile) validateHTTP() error {
	h := p.HTTP
	if h == nil {
		return nil
	}
	switch {
	case h.Runs < 1:
		return fmt.Errorf("profile %s: an http view with no run as evidence", p.ID())
	case !strings.Contains(h.Render.Server, "{text}"):
		return fmt.Errorf("profile %s: http.render.server must contain {text}", p.ID())
	case h.Instructions.Cap < 0 || h.Instructions.AtLeast < 0 || h.Instructions.Cap > 0 && h.Instructions.AtLeast > 0:
		return errors.New("profile " + p.ID() + ": http.instructions: a negative cap or at_least, or both")
	}
	return nil
}
