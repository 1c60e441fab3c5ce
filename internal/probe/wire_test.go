package probe

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseMessage(t *testing.T) {
	type got struct {
		Kind, Method, ID, Result, Why string
		Code                          int
	}
	tests := []struct {
		line string
		want got
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"a":1}}`, got{Kind: kindResponse, ID: "1", Result: `{"a":1}`}},
		{`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"nope"}}`, got{Kind: kindError, ID: `"x"`, Code: -32601}},
		{`{"jsonrpc":"2.0","id":7,"method":"ping"}`, got{Kind: kindRequest, Method: "ping", ID: "7"}},
		{`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, got{Kind: kindNotification, Method: "notifications/message"}},
		{`Server started on stdio`, got{Kind: kindInvalid, Why: "not a JSON object"}},
		{`[{"jsonrpc":"2.0","id":1,"result":{}}]`, got{Kind: kindInvalid, Why: "not a JSON object"}},
		{`{"id":1,"result":{}}`, got{Kind: kindInvalid, Why: `jsonrpc is not "2.0"`}},
		{`{"jsonrpc":"2.0","id":1}`, got{Kind: kindInvalid, ID: "1", Why: "neither a request nor a response"}},
		{`{"jsonrpc":"2.0","id":1,"error":"bad"}`, got{Kind: kindInvalid, ID: "1", Why: "malformed error object: json: cannot unmarshal string into Go value of type probe.RPCError"}},
	}
	for _, tt := range tests {
		m := parseMessage([]byte(tt.line))
		g := got{Kind: m.kind, Method: m.method, ID: string(m.id), Result: string(m.result), Why: m.why}
		if m.err != nil {
			g.Code = m.err.Code
		}
		if diff := cmp.Diff(tt.want, g); diff != "" {
			t.Errorf("parseMessage(%s) mismatch (-want +got):\n%s", tt.line, diff)
		}
	}
}

func TestSameID(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`1`, `1`, true},
		{`1`, `1.0`, true},
		{`"1"`, `1`, false},
		{`"server-discover-probe-1"`, `"server-discover-probe-1"`, true},
		{``, ``, false},
		{`null`, `1`, false},
	}
	for _, tt := range tests {
		if got := sameID(json.RawMessage(tt.a), json.RawMessage(tt.b)); got != tt.want {
			t.Errorf("sameID(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	if got := clip("在庫数を推測", 7); got != "在庫…" {
		t.Errorf("clip = %q, want a cut at a rune boundary", got)
	}
}

// FuzzParseMessage feeds server lines to the parser and the reply decoders:
// none may panic, and a reply must decode to a consistent kind.
func FuzzParseMessage(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s"},"instructions":"hi"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":"server-discover-probe-1","result":{"supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"private","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s"}}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t","description":"d"}],"nextCursor":"c"}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"m"}}`))
	f.Add([]byte("garbage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := parseMessage(data)
		switch m.kind {
		case kindError:
			if m.err == nil {
				t.Fatal("error kind without an error")
			}
		case kindResponse:
			if m.result == nil {
				t.Fatal("response without a result")
			}
			parseInitialize(m.result)
			parseDiscover(m.result)
			parseTools(m.result, true)
		case kindInvalid:
			if m.why == "" {
				t.Fatal("invalid without a reason")
			}
		}
	})
}

// TestPageParams: the first legacy page has no params member at all; the
// TypeScript SDK never answers a tools/list with "params": null.
func TestPageParams(t *testing.T) {
	if p := (Options{}).pageParams("", false); p != nil {
		t.Errorf("first legacy page params = %#v, want nil", p)
	}
	if p, ok := (Options{}).pageParams("c", false).(map[string]any); !ok || p["cursor"] != "c" {
		t.Errorf("second page params = %#v", p)
	}
}
