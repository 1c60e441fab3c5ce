package probe

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseDiscover(t *testing.T) {
	tests := []struct {
		name, result string
		instructions *string
		problems     []string
	}{
		{"complete", `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"instructions":"x","ttlMs":0,"cacheScope":"private","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}`,
			ptr("x"), nil},
		{"bare", `{"capabilities":{}}`, nil, []string{
			"DiscoverResult has no supportedVersions", "DiscoverResult has no ttlMs", "DiscoverResult has no cacheScope",
			"missing resultType", `DiscoverResult has no _meta["io.modelcontextprotocol/serverInfo"]`}},
		{"wrong types", `{"supportedVersions":["2025-11-25"],"capabilities":[],"instructions":5,"ttlMs":-1,"cacheScope":"shared","resultType":"partial","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s"}}}`,
			nil, []string{
				"DiscoverResult supportedVersions does not list 2026-07-28", "capabilities is not an object", "instructions is not a string",
				"DiscoverResult ttlMs is not a non-negative number", `DiscoverResult cacheScope is not "public" or "private"`,
				`DiscoverResult resultType is "partial", want "complete"`}},
	}
	for _, tt := range tests {
		h, err := parseDiscover([]byte(tt.result))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if diff := cmp.Diff(tt.instructions, h.instructions); diff != "" {
			t.Errorf("%s: instructions mismatch (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.problems, h.problems); diff != "" {
			t.Errorf("%s: problems mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
	if _, err := parseDiscover([]byte(`"a string"`)); err == nil {
		t.Error("parseDiscover of a string succeeded")
	}
}

func TestParseInitialize(t *testing.T) {
	h, err := parseInitialize([]byte(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{},"prompts":{}},"serverInfo":{"name":"s","version":"1.0"},"instructions":""}`))
	if err != nil {
		t.Fatal(err)
	}
	want := handshake{protocolVersion: "2025-11-25", serverInfo: &Implementation{"s", "1.0"}, capabilities: []string{"prompts", "tools"}, instructions: ptr("")}
	if diff := cmp.Diff(want, h, cmp.AllowUnexported(handshake{})); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	// tools.listChanged: the server may announce a change of its tools.
	for caps, want := range map[string]bool{`{"tools":{"listChanged":true}}`: true, `{"tools":{"listChanged":false}}`: false, `{"tools":7}`: false} {
		h, err := parseInitialize([]byte(`{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"serverInfo":{"name":"s","version":"1.0"}}`))
		if err != nil || h.toolsListChanged != want {
			t.Errorf("capabilities %s: tools list changed %v, %v; want %v", caps, h.toolsListChanged, err, want)
		}
	}
	// resources.subscribe: the server may announce a change of a resource.
	for caps, want := range map[string]bool{`{"resources":{"subscribe":true}}`: true, `{"resources":{}}`: false, `{"resources":"x"}`: false} {
		h, err := parseInitialize([]byte(`{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"serverInfo":{"name":"s","version":"1.0"}}`))
		if err != nil || h.resourcesSubscribe != want {
			t.Errorf("capabilities %s: resources subscribe %v, %v; want %v", caps, h.resourcesSubscribe, err, want)
		}
	}
}

func TestParseTools(t *testing.T) {
	tools, next, problems, err := parseTools([]byte(`{"tools":[{"name":"a","description":"d","_meta":{"anthropic/alwaysLoad":true},"execution":{"taskSupport":"required"}},{"name":"b","_meta":5,"execution":{"taskSupport":7}},7],"nextCursor":"p2"}`), true)
	if err != nil {
		t.Fatal(err)
	}
	want := []Tool{{Name: "a", Description: "d", Meta: map[string]json.RawMessage{"anthropic/alwaysLoad": json.RawMessage("true")}, TaskSupport: "required"}, {Name: "b"}}
	if diff := cmp.Diff(want, tools); diff != "" {
		t.Errorf("tools mismatch (-want +got):\n%s", diff)
	}
	if next != "p2" {
		t.Errorf("next = %q", next)
	}
	wantProblems := []string{"tools[1]._meta is not an object", "tools[2] is not an object", "ListToolsResult has no ttlMs", "ListToolsResult has no cacheScope"}
	if diff := cmp.Diff(wantProblems, problems); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
}

func ptr(s string) *string { return &s }

// TestCapabilityFlags: tools.listChanged and resources.subscribe are read
// each from its own member, so a malformed one costs only its own flag;
// capabilities that are not an object declare neither.
func TestCapabilityFlags(t *testing.T) {
	for _, tc := range []struct {
		caps              string
		listChanged, subs bool
	}{
		{`{"tools":{"listChanged":true},"resources":{"subscribe":true}}`, true, true},
		{`{"tools":{"listChanged":true}}`, true, false},
		{`{"resources":{"subscribe":true,"listChanged":true}}`, false, true},
		{`{"tools":5,"resources":{"subscribe":true}}`, false, true},
		{`{"tools":{"listChanged":true},"resources":"yes"}`, true, false},
		{`{"tools":{"listChanged":"true"}}`, false, false},
		{`[]`, false, false},
		{``, false, false},
	} {
		l, s := capabilityFlags(json.RawMessage(tc.caps))
		if l != tc.listChanged || s != tc.subs {
			t.Errorf("capabilityFlags(%s) = %v, %v; want %v, %v", tc.caps, l, s, tc.listChanged, tc.subs)
		}
	}
}
