package main

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client/pins"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/lab"
)

// httpClientFacts is what docs/clients.md ("HTTP per client") states of
// a pinned client over Streamable HTTP: whether it sends server/discover
// first; where the 1,000 characters of the dual lab's text reach the
// model and how many ("" and 0: in no request); and whether a lab that
// answers server/discover only is lost to it (the run goes on without
// the server), or fails the run.
type httpClientFacts struct {
	Discover   bool
	Kind       fakeapi.Kind
	Kept       int
	ModernLost bool
	ModernFail bool
	// NoHTTP: the client sends the lab nothing over Streamable HTTP (its
	// transports cannot speak it), and goes on without the server.
	NoHTTP bool
}

// httpClients are the facts of each pinned client, measured on Claude
// Code 2.1.332, Copilot CLI 1.0.102, Codex CLI 0.171.0, Gemini CLI
// 0.61.0, opencode 1.18.33, Kilo Code CLI 7.7.9, Qwen Code 0.24.4, Cline
// CLI 3.0.65, Continue CLI 1.5.47 and Droid 0.225.2 (2026-12-02 and
// 2026-12-03, every run agreeing). A new pin that behaves otherwise fails
// TestE2EHTTPEveryClient: measure it and update docs/clients.md with it.
var httpClients = map[string]httpClientFacts{
	"claude-code": {Discover: true, Kind: fakeapi.KindSystemMessage, Kept: 1000},
	"copilot":     {Discover: true},
	"codex":       {Kind: fakeapi.KindDeveloperMessage, Kept: 247, ModernLost: true},
	"gemini":      {Kind: fakeapi.KindUserTurn, Kept: 1000, ModernLost: true},
	"qwen":        {Kind: fakeapi.KindUserTurn, Kept: 1000, ModernLost: true},
	"opencode":    {Kind: fakeapi.KindSystem, Kept: 1000, ModernLost: true},
	"kilo":        {Kind: fakeapi.KindSystem, Kept: 1000, ModernLost: true},
	"cline":       {ModernLost: true},
	"droid":       {ModernLost: true},
	"continue":    {ModernLost: true, ModernFail: true},
	// The frameworks (2026-12-06): the AI SDK and the Agents SDK probe
	// and take a DiscoverResult; LangChain.js initializes, and a
	// modern-only server ends its run. No host passes a server's
	// instructions (their documentation's apps).
	"ai-sdk":        {Discover: true},
	"openai-agents": {Discover: true},
	"langchain":     {ModernLost: true, ModernFail: true},
	// The Claude Agent SDK 0.3.337 runs its own Claude Code (2.1.337),
	// and does as Claude Code 2.1.332.
	"claude-agent-sdk": {Discover: true, Kind: fakeapi.KindSystemMessage, Kept: 1000},
	// Mastra 2.0.0 probes and takes a DiscoverResult; the guide's app
	// forwards no instructions (2026-12-06).
	"mastra": {Discover: true},
	// ADK for TypeScript 2.0.0 initializes (a session per listing and
	// per call), and a modern-only server ends its run.
	"adk": {ModernLost: true, ModernFail: true},
	// Grok CLI 0.0.34's "http" transport posts to the URL's /rpc (the
	// lab answers 404) and its "streamable_http" one throws before
	// sending (2026-12-06).
	"grok": {NoHTTP: true},
	// mcp-use 1.34.6 initializes (its @modelcontextprotocol/sdk is
	// 1.26.0), and a modern-only server ends the run: the README's app
	// connects every server before the agent runs (2026-12-06).
	"mcp-use": {ModernLost: true, ModernFail: true},
}

// TestHTTPClientsArePinned: httpClients holds the facts of every client
// that pins a version (those that -client all runs), and of no other.
func TestHTTPClientsArePinned(t *testing.T) {
	if diff := cmp.Diff(slices.Sorted(maps.Keys(pins.All())), slices.Sorted(maps.Keys(httpClients))); diff != "" {
		t.Errorf("httpClients mismatch (-pinned +facts):\n%s", diff)
	}
}

// TestE2EHTTPEveryClient runs the cross matrix's http-dual and
// http-modern rows on every pinned client, and http-ttl-50ms on those
// that send server/discover (33 runs at -j 2) and asserts per client what docs/clients.md
// states, from the lab's log and the captured requests: server/discover
// sent first or not, in the 2026-07-28 form; the text of the reply it
// took, where and how much of it reached the model; a modern-only lab
// lost or not (Continue CLI fails the run). No client fetches
// server/discover again within a session: a run whose session did not
// outlive the ttlMs of 50 (a race: how long a session lasts is a matter
// of time) is logged as not telling, not failed.
func TestE2EHTTPEveryClient(t *testing.T) {
	if os.Getenv("INSTRLAB_E2E") != "1" {
		t.Skip("set INSTRLAB_E2E=1 to run every pinned client on the http rows (npm installs on first use)")
	}
	// Continue CLI's http-modern run fails (asserted below), so runs may
	// fail. http-ttl-50ms tells only for the clients that take a DiscoverResult
	// (the others' runs of it are http-dual's with two calls): those two
	// run it, which saves 8 runs.
	rows := func(args ...string) []analyze.Result {
		return runE2EFailing(t, true, append([]string{"-matrix", "cross", "-lab", binary, "-j", "2", "-timeout", "180s"}, args...)...)
	}
	results := rows("-row", "http-dual", "-row", "http-modern", "-client", "all")
	ttl := []string{"-row", "http-ttl-50ms"}
	for _, name := range slices.Sorted(maps.Keys(httpClients)) {
		if httpClients[name].Discover {
			ttl = append(ttl, "-client", name)
		}
	}
	results = append(results, rows(ttl...)...)
	if want := 2*len(httpClients) + len(ttl)/2 - 1; len(results) != want {
		t.Fatalf("%d results, want %d: http-dual and http-modern on each of %d pinned clients, http-ttl-50ms on the %d that send server/discover", len(results), want, len(httpClients), len(ttl)/2-1)
	}
	const shape = "{_meta{clientCapabilities,clientInfo,protocolVersion=2026-07-28}}"
	for _, r := range results {
		name, _, _ := strings.Cut(r.Client, "@")
		want, ok := httpClients[name]
		if !ok {
			t.Errorf("%s: a pinned client with no facts in httpClients", r.Client)
			continue
		}
		wantFail := r.Row == "http-modern" && want.ModernFail
		if (r.Status == "failed") != wantFail {
			t.Errorf("%s %s: status %s (%s), want failed %v", r.Client, r.Row, r.Status, r.Reason, wantFail)
			continue
		}
		if want.NoHTTP {
			if len(r.Handshake.Methods) != 0 {
				t.Errorf("%s %s: the lab got %q; the client speaks no Streamable HTTP (docs/findings.md)", r.Client, r.Row, r.Handshake.Methods)
			}
			continue
		}
		if r.HTTP == nil || len(r.Handshake.Methods) == 0 {
			t.Errorf("%s %s: no HTTP facts or no request in the lab's log", r.Client, r.Row)
			continue
		}
		m := r.Handshake.Methods
		if sent := m[0] == lab.Modern.Method(); sent != want.Discover {
			t.Errorf("%s %s: server/discover first %v, want %v (methods %q)", r.Client, r.Row, sent, want.Discover, m)
		}
		if want.Discover {
			if r.HTTP.DiscoverShape != shape || r.HTTP.Discovers != 1 {
				t.Errorf("%s %s: server/discover sent %d times in the form %q, want once in %q", r.Client, r.Row, r.HTTP.Discovers, r.HTTP.DiscoverShape, shape)
			}
		} else if r.HTTP.Discovers != 0 {
			t.Errorf("%s %s: sent server/discover %d times, want none", r.Client, r.Row, r.HTTP.Discovers)
		}
		lost := r.Handshake.Ready.IsZero()
		if r.Row == "http-modern" {
			if lost != want.ModernLost {
				t.Errorf("%s: the modern-only lab lost %v, want %v (methods %q)", r.Client, lost, want.ModernLost, m)
			}
			if lost {
				continue
			}
		} else if lost {
			t.Errorf("%s %s: no handshake completed (methods %q)", r.Client, r.Row, m)
			continue
		}
		reply := lab.ReplyInitialize
		if want.Discover {
			reply = lab.ReplyDiscover
		}
		var kind fakeapi.Kind
		var kept int
		var got lab.Reply
		if b := r.First.Best(); b != nil {
			kind, kept, got = b.Kind, b.Kept, b.Reply
		}
		if kind != want.Kind || kept != want.Kept || kept > 0 && got != reply {
			t.Errorf("%s %s: text of %q reply, %d characters in %q; want %d in %q from %q", r.Client, r.Row, got, kept, kind, want.Kept, want.Kind, reply)
		}
		if r.Row != "http-ttl-50ms" {
			continue
		}
		if r.HTTP.TTLMs == nil || *r.HTTP.TTLMs != 50 || r.HTTP.CacheScope != "private" {
			t.Errorf("%s: DiscoverResult ttlMs %v, cacheScope %q; want 50, private", r.Client, r.HTTP.TTLMs, r.HTTP.CacheScope)
		}
		switch {
		case r.HTTP.PastTTL == 0:
			t.Logf("%s http-ttl-50ms: no request came after the ttl of 50 ms: whether it fetches again is not measured by this run", r.Client)
		case r.HTTP.Refetched != 0:
			t.Errorf("%s http-ttl-50ms: server/discover sent again %d times past the ttl; docs/clients.md says no client does", r.Client, r.HTTP.Refetched)
		default:
			t.Logf("%s http-ttl-50ms: %d requests past the ttl, no server/discover among them", r.Client, r.HTTP.PastTTL)
		}
	}
	for _, want := range []string{"http-dual", "http-modern"} {
		n := 0
		for _, r := range results {
			if r.Row == want {
				n++
			}
		}
		if n != len(httpClients) {
			t.Errorf("row %s ran on %d clients, want %d", want, n, len(httpClients))
		}
	}
}
