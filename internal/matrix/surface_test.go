package matrix

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// TestSurfaceMatrix: the built-in matrix surface has a row per group but
// hang, each row that calls tools calls every tool of its group, by the key
// of the lab it runs (two different keys in the twin row), and each row's
// lab flags are valid.
func TestSurfaceMatrix(t *testing.T) {
	m, ok := Builtin("surface")
	if !ok {
		t.Fatal("no built-in matrix surface")
	}
	groups := map[string]bool{}
	for _, r := range m.Rows {
		groups[r.Surface] = true
		if len(r.Script) == 0 {
			continue
		}
		if r.Name == "surface-resources" { // the client's own tools, not the lab's
			for _, c := range r.Script[0].Calls {
				if !c.Fit || strings.Contains(c.Tool, "lab") {
					t.Errorf("row %s: call %+v, want a client's tool with its input fit", r.Name, c)
				}
			}
			continue
		}
		seed := "" // a row of one lab runs it unseeded; several are seeded with their names
		if len(r.Servers) > 0 {
			seed = r.Servers[0].Name
		}
		tools, err := lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceGroup(r.Surface)}, Seed: seed,
			ResultSize: lab.Instructions{Language: lab.English, Length: 1000}}.Tools()
		if err != nil {
			t.Fatal(err)
		}
		calls := r.Script[0].Calls
		want := len(tools)
		if r.Surface == string(lab.SurfaceTwin) {
			want = 2
			if calls[0].Key == calls[1].Key {
				t.Errorf("twin row: both calls have key %s", calls[0].Key)
			}
		}
		if len(calls) != want {
			t.Errorf("row %s calls %d tools, want %d", r.Name, len(calls), want)
		}
		if calls[0].Key != tools[0].Key {
			t.Errorf("row %s: key %s, want the lab's %s", r.Name, calls[0].Key, tools[0].Key)
		}
	}
	for _, g := range lab.SurfaceGroups {
		if groups[string(g)] != (g != lab.SurfaceHang && g != lab.SurfaceProtocol) {
			t.Errorf("group %s: in the matrix %v", g, groups[string(g)])
		}
	}
}

// TestProtocolMatrix: the protocol matrix's rows serve the protocol
// group, the second in both eras, the third and fourth as the first two
// over Streamable HTTP, each run bounded by the rows' own limit, and the
// first calls each of its tools in one turn, with the lab's keys, then
// the tool the lab adds in the next.
func TestProtocolMatrix(t *testing.T) {
	m, ok := Builtin("protocol")
	if !ok || len(m.Rows) != 5 || m.Rows[1].Name != ProtocolModernRow || m.Rows[1].Eras != lab.ModeBoth ||
		m.Rows[2].Name != ProtocolHTTPRow || !m.Rows[2].HTTP() || m.Rows[2].Eras != "" || len(m.Rows[2].Script) != len(m.Rows[0].Script) ||
		m.Rows[3].Name != ProtocolModernHTTPRow || !m.Rows[3].HTTP() || m.Rows[3].Eras != lab.ModeBoth || len(m.Rows[3].Script) != len(m.Rows[0].Script) {
		t.Fatalf("built-in protocol: %v, %+v", ok, m)
	}
	var names []string
	for _, r := range m.Rows {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, ProtocolRows) {
		t.Errorf("rows %q, ProtocolRows %q", names, ProtocolRows)
	}
	for _, r := range m.Rows {
		if r.Limit(3*time.Minute) != time.Minute || r.IdleLimit() != 20*time.Second {
			t.Errorf("row %s: a run's limit %v under -timeout 3m and idle %v, want the rows' 1m and 20s", r.Name, r.Limit(3*time.Minute), r.IdleLimit())
		}
	}
	r := m.Rows[0]
	tools, err := lab.SurfaceConfig{Groups: []lab.SurfaceGroup{lab.SurfaceProtocol}}.Tools()
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != ProtocolRow || r.Surface != string(lab.SurfaceProtocol) || len(r.Script) != 2 || len(r.Script[0].Calls) != len(tools) {
		t.Fatalf("row %+v", r)
	}
	for i, c := range r.Script[0].Calls {
		if c.Tool != tools[i].Tool.Name || c.Key != tools[i].Key {
			t.Errorf("call %d: %s %s, want %s %s", i, c.Tool, c.Key, tools[i].Tool.Name, tools[i].Key)
		}
	}
	if r.Script[1].Tool != labvocab.ProtocolAddedTool || r.Script[1].Key == "" {
		t.Errorf("second turn %+v, want a call of %s", r.Script[1], labvocab.ProtocolAddedTool)
	}
	// The asks row: both eras over stdio, a turn per ask, each one call
	// of the first row's, with its key, and room for a loader per call.
	asks := m.Rows[4]
	if asks.Name != ProtocolAsksRow || asks.HTTP() || asks.Eras != lab.ModeBoth || len(asks.Script) != len(labvocab.ProtocolAsks) || asks.MaxTurns < 2*len(asks.Script)+1 {
		t.Fatalf("asks row %+v", asks)
	}
	for i, a := range labvocab.ProtocolAsks {
		turn := asks.Script[i]
		k := slices.IndexFunc(r.Script[0].Calls, func(c fakeapi.Call) bool { return c.Tool == a.Tool })
		if turn.Tool != a.Tool || len(turn.Calls) != 0 || k < 0 || turn.Key != r.Script[0].Calls[k].Key {
			t.Errorf("asks turn %d: %+v, want the one call of %s", i, turn, a.Tool)
		}
	}
}

// TestCall: -call's values, and the rows that call them.
func TestCall(t *testing.T) {
	tests := []struct {
		in, tool, input, err string
	}{
		{"echo", "echo", "", ""},
		{` echo = {"text":"hi"}`, "echo", ` {"text":"hi"}`, ""},
		{`echo=[1]`, "", "", "is not a JSON object"},
		{`=1`, "", "", "want TOOL or TOOL=JSON"},
	}
	for _, tt := range tests {
		c, err := ParseCall(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseCall(%q) = %v, want error %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || c.Tool != tt.tool || string(c.Input) != tt.input {
			t.Errorf("ParseCall(%q) = %+v, %v", tt.in, c, err)
		}
	}
	m := ForServers([]string{"a", "b"})
	calls, _ := ParseCalls([]string{"echo", `add={"x":1}`})
	m.Call(calls)
	for _, r := range m.Rows {
		if len(r.Script) != 1 || len(r.Script[0].Calls) != 2 || r.Prompt != surfacePrompt || r.MaxTurns != surfaceTurns {
			t.Errorf("row %s: script %+v, prompt %q, turns %d", r.Name, r.Script, r.Prompt, r.MaxTurns)
		}
	}
	if err := m.Validate(); err != nil {
		t.Errorf("a matrix of calling rows: %v", err)
	}
}
