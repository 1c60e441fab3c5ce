package atlas

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
)

// committedCapabilities is capabilities.json of the committed atlas, its
// handshakes read from the committed evidence.
func committedCapabilities(t *testing.T) *CapabilitiesFile {
	t.Helper()
	a, err := Read(t.Context(), filepath.Join(committed, "atlas.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.Capabilities(committed, clients.Display)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// findRecord is the record of client's range that starts at first, and
// the key it is under ("" in Unkeyed).
func findRecord(t *testing.T, c *CapabilitiesFile, client, first string) (string, CapabilityRecord) {
	t.Helper()
	for key, rs := range c.Clients {
		for _, r := range rs {
			if r.Facts.Client == client && r.Facts.First == first {
				return key, r
			}
		}
	}
	for _, r := range c.Unkeyed[client] {
		if r.Facts.First == first {
			return "", r
		}
	}
	t.Fatalf("no record of %s from %s", client, first)
	return "", CapabilityRecord{}
}

// TestCapabilitiesEveryRange: every range of every committed timeline
// gives exactly one record, with the range's ends, the next range's
// start, and its properties; a record's key is under Clients exactly
// when it has one.
func TestCapabilitiesEveryRange(t *testing.T) {
	a, err := Read(t.Context(), filepath.Join(committed, "atlas.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := committedCapabilities(t)
	seen := map[string]int{}
	check := func(key string, r CapabilityRecord) {
		f := r.Facts
		seen[f.Client+"@"+f.First]++
		if key != f.Key.Name || (key == "") != (f.Key.From == "none") {
			t.Errorf("%s@%s under %q with key %+v", f.Client, f.First, key, f.Key)
		}
	}
	for key, rs := range c.Clients {
		for _, r := range rs {
			check(key, r)
		}
	}
	for name, rs := range c.Unkeyed {
		for _, r := range rs {
			if r.Facts.Client != name {
				t.Errorf("Unkeyed[%s] holds a record of %s", name, r.Facts.Client)
			}
			check("", r)
		}
	}
	segments := 0
	for _, tl := range a.Timelines {
		for i, s := range tl.Segments {
			segments++
			if n := seen[tl.Client+"@"+s.From]; n != 1 {
				t.Errorf("%s %s–%s: %d records, want 1", tl.Client, s.From, s.To, n)
				continue
			}
			_, r := findRecord(t, c, tl.Client, s.From)
			want := ""
			if i+1 < len(tl.Segments) {
				want = tl.Segments[i+1].From
			}
			if r.Facts.Last != s.To || r.Facts.Next != want || r.Facts.Newest != (want == "") || !s.Props.Equal(r.Facts.Properties) || !slices.Equal(r.Facts.Probed, s.Probed) {
				t.Errorf("%s %s–%s: record %s–%s next %q newest %v", tl.Client, s.From, s.To, r.Facts.First, r.Facts.Last, r.Facts.Next, r.Facts.Newest)
			}
			if len(r.Facts.Handshakes) != len(s.Probed) {
				t.Errorf("%s %s: %d handshakes for %d versions probed", tl.Client, s.From, len(r.Facts.Handshakes), len(s.Probed))
			}
		}
	}
	if len(seen) != segments {
		t.Errorf("%d records for %d ranges", len(seen), segments)
	}
}

// TestCapabilitiesCommittedRecords holds records of the committed atlas
// to what its evidence says: the caps, the keys measured where the
// clients sent their names, the capabilities declared where every
// version of a range declared the same, and nothing where they differ.
func TestCapabilitiesCommittedRecords(t *testing.T) {
	c := committedCapabilities(t)

	key, cc := findRecord(t, c, "claude-code", "2.1.296")
	in := cc.Facts.Instructions
	if key != "claude-code" || cc.Facts.Last != "2.1.332" || !cc.Facts.Newest || in.Limit != 4096 || in.Unit != "characters" ||
		in.Cap != "4096 characters" || in.Placement != "system-message" || cc.Facts.Probe != "server/discover first" || cc.Title != "Claude Code" {
		t.Errorf("claude-code 2.1.296: key %q, %+v", key, cc.Facts)
	}
	if cc.Facts.Key != (KeyFacts{Name: "claude-code", From: "measured", Community: true}) {
		t.Errorf("claude-code 2.1.296: key %+v, want measured from its server/discover _meta", cc.Facts.Key)
	}
	if p := cc.Facts.Properties.Find("cap"); p.Evidence != "claude-code@2.1.296/en-6000/1" {
		t.Errorf("claude-code 2.1.296: cap's evidence %q", p.Evidence)
	}
	// its initialize requests were not kept whole (evidence of 2026-12-01):
	// no protocolVersion, no declared capability
	if cc.ProtocolVersion != "" || cc.Roots != nil || !slices.Contains(cc.Facts.NotMeasured, "roots") {
		t.Errorf("claude-code 2.1.296: protocolVersion %q, roots %s, not measured %q", cc.ProtocolVersion, cc.Roots, cc.Facts.NotMeasured)
	}
	if _, prev := findRecord(t, c, "claude-code", "2.1.292"); prev.Facts.Next != "2.1.296" || prev.Facts.Instructions.Limit != 2048 {
		t.Errorf("claude-code 2.1.292: next %q, limit %d", prev.Facts.Next, prev.Facts.Instructions.Limit)
	}

	// 2.1.142–2.1.153, swept again with the initialize kept: all four
	// versions declared the same
	_, cc = findRecord(t, c, "claude-code", "2.1.142")
	if cc.ProtocolVersion != "2025-11-25" || string(cc.Roots) != "{}" || string(cc.Elicitation) != "{}" || cc.Sampling != nil || cc.Tools == nil {
		t.Errorf("claude-code 2.1.142: %q roots %s elicitation %s sampling %s tools %v", cc.ProtocolVersion, cc.Roots, cc.Elicitation, cc.Sampling, cc.Tools)
	}
	if diff := cmp.Diff([]string{"resources", "prompts", "tasks", "completions", "logging"}, cc.Facts.NotMeasured); diff != "" {
		t.Errorf("claude-code 2.1.142: not measured (-want +got):\n%s", diff)
	}
	if cc.Facts.Wait != "does not wait (text never arrives)" {
		t.Errorf("claude-code 2.1.142: wait %q", cc.Facts.Wait)
	}

	// Copilot CLI renamed itself at 1.0.81: each range under the name
	// its versions sent, the old one the community list's
	key, co := findRecord(t, c, "copilot", "1.0.11")
	if key != "github-copilot-developer" || !co.Facts.Key.Community || co.Facts.Key.From != "measured" || co.ProtocolVersion != "2025-11-25" {
		t.Errorf("copilot 1.0.11: key %q %+v, protocolVersion %q", key, co.Facts.Key, co.ProtocolVersion)
	}
	// its versions declared different capabilities: none is claimed
	if co.Sampling != nil || co.Elicitation != nil || !slices.Contains(co.Facts.NotMeasured, "sampling") {
		t.Errorf("copilot 1.0.11: sampling %s, elicitation %s, not measured %q", co.Sampling, co.Elicitation, co.Facts.NotMeasured)
	}
	key, co = findRecord(t, c, "copilot", "1.0.81")
	if key != "copilot-cli" || co.Facts.Key.Community || string(co.Sampling) != "{}" || canonical(co.Elicitation) != `{"form":{},"url":{}}` || co.Roots != nil || slices.Contains(co.Facts.NotMeasured, "roots") {
		t.Errorf("copilot 1.0.81: key %q %+v, sampling %s, elicitation %s, roots %s, not measured %q", key, co.Facts.Key, co.Sampling, co.Elicitation, co.Roots, co.Facts.NotMeasured)
	}

	// Cline CLI sends a name the community list lacks
	key, cl := findRecord(t, c, "cline", "3.0.57")
	if key != "@cline/core" || cl.Facts.Key.Community || cl.ProtocolVersion != "2024-11-05" || cl.Roots != nil || slices.Contains(cl.Facts.NotMeasured, "roots") {
		t.Errorf("cline: key %q %+v, protocolVersion %q, roots %s, not measured %q", key, cl.Facts.Key, cl.ProtocolVersion, cl.Roots, cl.Facts.NotMeasured)
	}

	// a client whose evidence names nothing: the community key, marked so
	key, g := findRecord(t, c, "gemini", "0.40.0")
	if key != "gemini-cli-mcp-client" || g.Facts.Key.From != "mapping" || g.ProtocolVersion != "" || g.Facts.Instructions.Limit != 0 || g.Facts.Instructions.UpTo != 6000 {
		t.Errorf("gemini 0.40.0: key %q %+v, protocolVersion %q, instructions %+v", key, g.Facts.Key, g.ProtocolVersion, g.Facts.Instructions)
	}
	// and one with no name at all stays out of Clients
	for _, name := range []string{"qwen", "kilo"} {
		if len(c.Unkeyed[name]) == 0 {
			t.Errorf("%s: not in Unkeyed", name)
		}
	}
}

// TestCapabilitiesShape: each record has the community list's members
// and one more, the namespaced extension; nothing else.
func TestCapabilitiesShape(t *testing.T) {
	c := committedCapabilities(t)
	var b bytes.Buffer
	if err := c.JSON(&b); err != nil {
		t.Fatal(err)
	}
	var file struct {
		Schema  string                                  `json:"$schema"`
		Clients map[string][]map[string]json.RawMessage `json:"clients"`
	}
	if err := json.Unmarshal(b.Bytes(), &file); err != nil {
		t.Fatal(err)
	}
	allowed := append([]string{"title", "url", CapabilitiesExt}, communityMembers...)
	n := 0
	for key, rs := range file.Clients {
		for _, r := range rs {
			n++
			for m := range r {
				if !slices.Contains(allowed, m) {
					t.Errorf("%s: member %q", key, m)
				}
			}
			if _, ok := r["title"]; !ok {
				t.Errorf("%s: no title", key)
			}
			if _, ok := r[CapabilitiesExt]; !ok {
				t.Errorf("%s: no %s", key, CapabilitiesExt)
			}
		}
	}
	if n < 20 {
		t.Errorf("%d records under keys: want the committed atlas's ranges", n)
	}
}

// TestCommunityKeysNameClients: the mapping's URLs are the npm pages of
// the packages installed, and it covers every client instrlab runs.
func TestCommunityKeysNameClients(t *testing.T) {
	for _, name := range clients.Names() {
		cc, ok := communityKeys[name]
		if !ok {
			t.Errorf("%s: not in communityKeys", name)
			continue
		}
		c, err := clients.New(name)
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := c.(client.Published); ok && !strings.HasPrefix(npmPage(p.Package()), cc.url) {
			t.Errorf("%s: url %q is not the npm page of %s", name, cc.url, p.Package())
		}
	}
}

// capAtlas is one version of a fake client whose handshake row's run
// directory is run (relative to the atlas's base).
func capAtlas(run string) *Atlas {
	pt := Point{Version: "1.0.0", Attempt: 1, Dir: "fake@1.0.0", Props: Props{
		{Name: "uses", Value: "yes", Evidence: run},
		{Name: "probe", Value: "initialize first", Evidence: run},
		{Name: "cap", Value: "2048 UTF-16 units", Evidence: "fake@1.0.0/en-6000/1"},
	}}
	return &Atlas{Date: "2026-12-01", Matrix: "atlas", Properties: []string{"uses", "probe", "cap"},
		Timelines: []Timeline{NewTimeline("fake", "all", []string{"1.0.0"}, []Point{pt})}}
}

// TestCapabilitiesEscapesClientText: what a client sent (its name,
// its capabilities) is copied as the same JSON values, with no control,
// invisible or CI-command text left raw in the file.
func TestCapabilitiesEscapesClientText(t *testing.T) {
	base := t.TempDir()
	run := "fake@1.0.0/en-1000/1"
	if err := os.MkdirAll(filepath.Join(base, run), 0o755); err != nil {
		t.Fatal(err)
	}
	name := "evil\x1b[2J\u202e##[error]<script>\u0085"
	init := map[string]any{"method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{"roots": map[string]any{"listChanged": true}, "sampling": map[string]any{"x": "\u009b31m\u200b"}},
		"clientInfo":      map[string]any{"name": name, "version": "1"},
	}}
	body, err := json.Marshal(init)
	if err != nil {
		t.Fatal(err)
	}
	log := `{"dir":"recv","kind":"request","method":"initialize","id":0,"body":` + string(body) + "}\n" +
		`{"dir":"recv","kind":"request","method":"tools/list","id":1}` + "\n"
	if err := os.WriteFile(filepath.Join(base, run, "lab.jsonl"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := capAtlas(run).Capabilities(base, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := c.JSON(&b); err != nil {
		t.Fatal(err)
	}
	out := b.Bytes()
	for _, raw := range []string{"\x1b", "\u202e", "##[", "\u0085", "\u009b", "\u200b", "<script>"} {
		if bytes.Contains(out, []byte(raw)) {
			t.Errorf("capabilities.json holds %q raw", raw)
		}
	}
	var back CapabilitiesFile
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	rs := back.Clients[name]
	if len(rs) != 1 {
		t.Fatalf("keys %v, want the client's name", keys(back.Clients))
	}
	r := rs[0]
	if r.Facts.Key != (KeyFacts{Name: name, From: "measured"}) || r.Title != "fake" || canonical(r.Roots) != `{"listChanged":true}` ||
		canonical(r.Sampling) != `{"x":"`+"\u009b31m\u200b"+`"}` || r.Tools == nil || r.Facts.Instructions.Limit != 2048 || r.Facts.Instructions.Unit != "UTF-16 units" {
		t.Errorf("record %+v", r)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestCapabilitiesNoEvidence: without a lab log the handshake is not
// known: no member is claimed, every one is named not measured, and a
// client with no mapped name stays out of Clients.
func TestCapabilitiesNoEvidence(t *testing.T) {
	c, err := capAtlas("fake@1.0.0/en-1000/1").Capabilities(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Clients) != 0 || len(c.Unkeyed["fake"]) != 1 {
		t.Fatalf("clients %v, unkeyed %v", keys(c.Clients), keys(c.Unkeyed))
	}
	r := c.Unkeyed["fake"][0]
	if r.Tools != nil || r.ProtocolVersion != "" || r.Facts.Handshakes[0].Note != "no lab log in the evidence" {
		t.Errorf("record %+v", r)
	}
	if diff := cmp.Diff(communityMembers, r.Facts.NotMeasured); diff != "" {
		t.Errorf("not measured (-want +got):\n%s", diff)
	}
}

// TestCapabilitiesUnreadableEvidence: a lab log that cannot be opened
// (its run directory is a file) is an error naming the version, and
// the site writes nothing.
func TestCapabilitiesUnreadableEvidence(t *testing.T) {
	root := t.TempDir()
	run := "fake@1.0.0/en-1000/1"
	if err := os.MkdirAll(filepath.Join(root, "fake@1.0.0", "en-1000"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, run), []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := capAtlas(run)
	a.Rebase("..")
	site := filepath.Join(root, "site")
	err := a.Site(site, SiteOptions{})
	if err == nil || !strings.Contains(err.Error(), "atlas site: capabilities of fake@1.0.0: opening lab log") {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(site); !os.IsNotExist(err) {
		t.Errorf("the site was written: %v", err)
	}
}

// TestSiteUnwritable: a site that cannot be written (its badges
// directory is a file) fails, naming the path.
func TestSiteUnwritable(t *testing.T) {
	root := t.TempDir()
	site := filepath.Join(root, "site")
	if err := os.MkdirAll(site, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site, "badges"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	a := capAtlas("fake@1.0.0/en-1000/1")
	a.Rebase("..")
	err := a.Site(site, SiteOptions{})
	if err == nil || !strings.Contains(err.Error(), "atlas site:") || !strings.Contains(err.Error(), filepath.Join(site, "badges")) {
		t.Fatalf("error %v", err)
	}
}

func TestReadCapValue(t *testing.T) {
	for v, want := range map[string][3]any{
		"4096 characters":            {4096, "characters", 0},
		"2048 UTF-16 units":          {2048, "UTF-16 units", 0},
		"none up to 6000 characters": {0, "characters", 6000},
		"text not used":              {0, "", 0},
		"yes 3 of 5; no 2 of 5":      {0, "", 0},
		"":                           {0, "", 0},
	} {
		l, u, up := readCapValue(v)
		if got := [3]any{l, u, up}; got != want {
			t.Errorf("readCapValue(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestCapabilitiesObserved: a record holds the observed protocol of the
// client versions within its range (from its first to its last), not of
// a version outside it or of another client, and its evidence maps as
// every other evidence path does.
func TestCapabilitiesObserved(t *testing.T) {
	c, err := capAtlas("fake@1.0.0/en-1000/1").Capabilities(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	in := ObservedProtocol{Version: "1.0.0", Runs: 2, Facts: []ObservedFact{{Feature: "resources/updated", Does: "never subscribes"}}, Evidence: "../profiles/fake@1.0.0.json"}
	c.observe(func(client string) []ObservedProtocol {
		if client != "fake" {
			return []ObservedProtocol{{Version: "1.0.0"}}
		}
		return []ObservedProtocol{in, {Version: "2.0.0"}, {Version: "0.9.0"}}
	})
	if got := c.Unkeyed["fake"][0].Facts.Observed; len(got) != 1 || !reflect.DeepEqual(got[0], in) {
		t.Fatalf("observed %+v, want version 1.0.0's alone", got)
	}
	c.mapEvidence(func(p string) string { return "https://example.com/" + p })
	if got := c.Unkeyed["fake"][0].Facts.Observed[0].Evidence; got != "https://example.com/../profiles/fake@1.0.0.json" {
		t.Errorf("evidence mapped to %q", got)
	}
	c.observe(nil) // observes nothing
	if n := len(c.Unkeyed["fake"][0].Facts.Observed); n != 1 {
		t.Errorf("a nil observed changed the record: %d", n)
	}
}
