package client

import (
	"slices"
	"strings"
)

// DirectArmName names the direct arm: the client talks to its vendor's own
// host, as a user with the vendor's key does, instead of the loopback
// address a base-URL override gives it (the gateway user, every other
// arm). Inside the network jail the vendor's hosts resolve to the fake
// API, which serves them over TLS with a certificate authority made for
// the run, and the client is told to trust that authority.
const DirectArmName = "direct"

// A Vendor is where a client's model API is when nothing overrides it, and
// how the client is made to trust a certificate authority: what the direct
// arm needs of it, read in the client's shipped code.
type Vendor struct {
	// Hosts are the names of the model API the client talks to by default
	// (as api.anthropic.com): the jail resolves these, and only these, to
	// the fake; a name outside them is logged and answered "no such host".
	Hosts []string `json:"hosts"`
	// TrustEnv names the environment variables that make the client trust
	// a CA file (NODE_EXTRA_CA_CERTS for Node and Bun builds,
	// SSL_CERT_FILE or the client's own for a Rust build): each is set to
	// the run's CA.
	TrustEnv []string `json:"trust_env"`
	// Says what the direct arm changes in the client's configuration
	// besides dropping the base URL, and where that was read.
	Says string `json:"says,omitempty"`
	// Answers are the fake's replies to requests the client sends its
	// vendor's hosts, other than model requests, that it must have
	// answered before it makes a model request (a GitHub account's
	// Copilot user info): each the smallest reply the client's code
	// accepts, with where in that code its shape was read. The fake
	// answers any other such request 404.
	Answers []Answer `json:"answers,omitempty"`
}

// An Answer is the fake's reply, in the direct arm, to the client's
// Method request of Path at Host: Body, JSON, with status 200. What
// names it in the request's record.
type Answer struct {
	Host   string `json:"host"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Body   string `json:"body"`
	What   string `json:"what"`
}

// A Direct client can run in the direct arm. Its Command, when
// Run.Arm.Direct is set, gives the client no base URL (Run.APIURL is then
// empty) and its vendor's own provider; the runner sets the trust
// variables (Run.Trust).
type Direct interface {
	Vendor() Vendor
}

// DirectArm is c's direct arm, when c can run in one.
func DirectArm(c Client) (Arm, bool) {
	d, ok := c.(Direct)
	if !ok {
		return Arm{}, false
	}
	v := d.Vendor()
	return Arm{Name: DirectArmName, Direct: true, Hosts: slices.Clone(v.Hosts), Says: v.Says, Answers: slices.Clone(v.Answers)}, true
}

// TrustEnv is the environment that makes c trust the CA file ca: each of
// its vendor's TrustEnv variables set to ca; nil for a client that cannot
// run direct.
func TrustEnv(c Client, ca string) map[string]string {
	d, ok := c.(Direct)
	if !ok {
		return nil
	}
	env := map[string]string{}
	for _, k := range d.Vendor().TrustEnv {
		env[k] = ca
	}
	return env
}

// directHow says how the direct arm is set, as "vendor host api.anthropic.com,
// no base URL".
func (a Arm) directHow() string {
	hosts := slices.Clone(a.Hosts)
	slices.Sort(hosts)
	what := "vendor host "
	if len(hosts) > 1 {
		what = "vendor hosts "
	}
	return what + strings.Join(hosts, ", ") + ", no base URL"
}
