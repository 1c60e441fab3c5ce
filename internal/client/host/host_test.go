package host

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/testutil"
)

func read(t *testing.T, out string) client.Observation {
	t.Helper()
	dir := t.TempDir()
	p := evidence.RunDir(dir).Stdout()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	var o client.Observation
	Read(&o, dir, evidence.StdoutFile, "lab")
	return o
}

// TestRead: what a host says of its servers, its result and its failure.
func TestRead(t *testing.T) {
	for _, tt := range []struct {
		name, out                        string
		status, answer, model, resultErr string
		warnings                         []string
	}{
		{"connected", `{"event":"server","server":"lab","status":"connected","tools":3}` + "\n" +
			`{"event":"result","text":"BEGIN=A END=B LAST=9","model":"gpt-4o","steps":1}` + "\n",
			"connected", "BEGIN=A END=B LAST=9", "gpt-4o", "", nil},
		{"failed server", `{"event":"server","server":"lab","status":"failed","error":"MCP error -32000: Connection closed"}` + "\n" +
			`{"event":"result","text":"no tools","model":"m"}` + "\n",
			"failed", "no tools", "m", "", []string{"client/stdout.txt: server lab: MCP error -32000: Connection closed"}},
		{"another server only", `{"event":"server","server":"other","status":"connected","tools":1}` + "\n" + `{"event":"result","text":"x"}` + "\n",
			"absent", "x", "", "", nil},
		{"run failed", `{"event":"error","error":"Failed after 3 attempts. Last error: Bad Gateway"}` + "\n",
			"", "", "", "Failed after 3 attempts. Last error: Bad Gateway", nil},
		{"no result", `{"event":"server","server":"lab","status":"connected","tools":3}` + "\n",
			"connected", "", "", "", []string{"client/stdout.txt: the host printed no result"}},
		{"garbage and an unknown event", "Warning: node 20\n" + `{"event":"step"}` + "\n" + `{"event":"result","text":"x"}` + "\n",
			"", "x", "", "", []string{"client/stdout.txt:1: invalid character 'W' looking for beginning of value", `client/stdout.txt: unknown event "step"`}},
	} {
		o := read(t, tt.out)
		got := []string{o.ServerStatus, o.Answer, o.Model, o.ResultError}
		if diff := cmp.Diff([]string{tt.status, tt.answer, tt.model, tt.resultErr}, got); diff != "" {
			t.Errorf("%s: status, answer, model, error mismatch (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.warnings, o.Warnings); diff != "" {
			t.Errorf("%s: warnings mismatch (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestReadMissing: a host that printed nothing at all leaves a warning,
// not an error.
func TestReadMissing(t *testing.T) {
	var o client.Observation
	Read(&o, t.TempDir(), evidence.StdoutFile, "lab")
	if len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "client/stdout.txt") || len(o.Files) != 0 {
		t.Errorf("warnings %v files %v", o.Warnings, o.Files)
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"event":"server","server":"lab","status":"connected","tools":3}` + "\n" + `{"event":"result","text":"x","model":"m"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o := read(t, string(data))
		for _, w := range o.Warnings {
			if !strings.HasPrefix(w, "client/stdout.txt") {
				t.Errorf("warning %q does not name its file", w)
			}
		}
	})
}

// TestConfig: the host's config holds the servers in order, the row's
// model and turns over the defaults, the arm's settings at their keys and
// its approval mode; a copy is kept in the client dir.
func TestConfig(t *testing.T) {
	dir := t.TempDir()
	r := &client.Run{Dir: dir, Servers: testutil.TwoServers(), Prompt: "p",
		Arm: client.Arm{Name: "instructions", Settings: map[string]any{"instructions": true}, Approval: client.ApprovalPlan}}
	if err := os.MkdirAll(r.ClientDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	path, err := Config(r, "gpt-4o", 5)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	testutil.ServersInOrder(t, string(b))
	var got struct {
		Prompt, Model string
		MaxSteps      int
		Instructions  bool
		Approval      string
		Servers       []client.Server
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Prompt != "p" || got.Model != "gpt-4o" || got.MaxSteps != 5 || !got.Instructions || got.Approval != client.ApprovalPlan || len(got.Servers) != 2 {
		t.Errorf("config %s", b)
	}
	r.Model, r.MaxTurns, r.Arm = "small", 2, client.Arm{}
	if path, err = Config(r, "gpt-4o", 5); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(path)
	if !strings.Contains(string(b), `"model": "small"`) || !strings.Contains(string(b), `"maxSteps": 2`) || strings.Contains(string(b), "instructions") || strings.Contains(string(b), "approval") {
		t.Errorf("the row's model and turns, no arm: %s", b)
	}
	r.Servers = []client.Server{{Command: "x"}}
	if _, err := Config(r, "m", 1); err == nil {
		t.Error("a server without a name: no error")
	}
}
