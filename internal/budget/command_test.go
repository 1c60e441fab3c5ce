package budget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
)

// TestCommandValidate: each wrong value is refused before any run, the
// error naming its flag; a valid command gets its clients, settings,
// probe matrix and the wait budget by default.
func TestCommandValidate(t *testing.T) {
	newClients := func(_ context.Context, specs []string, _ io.Writer) ([]client.Client, error) {
		var cs []client.Client
		for _, s := range specs {
			if s != "fake@1" {
				return nil, errors.New("unknown client " + s)
			}
			cs = append(cs, &fakeclient.Client{Version: "1"})
		}
		return cs, nil
	}
	valid := func() Command {
		return Command{Options: Options{Out: "out", Timeout: time.Minute}, Format: "text", Specs: []string{"fake@1"}, NewClients: newClients, MatrixName: "atlas"}
	}
	for _, tt := range []struct {
		name string
		edit func(*Command)
		want string
	}{
		{"no client", func(c *Command) { c.Specs = nil }, "budget: -client is required"},
		{"no out", func(c *Command) { c.Out = "" }, "budget: -out is required"},
		{"timeout", func(c *Command) { c.Timeout = 0 }, "-timeout must be positive"},
		{"setting", func(c *Command) { c.Settings = []string{"NOEQUALS"} }, `-env "NOEQUALS": want NAME=VALUE`},
		{"unknown client", func(c *Command) { c.Specs = []string{"nope@1"} }, "-client: unknown client nope@1"},
		{"budget", func(c *Command) { c.Budgets = []string{"patience"} }, `-budget "patience": want one of wait`},
		{"two clients and a profile", func(c *Command) { c.Specs = []string{"fake@1", "fake@1"}; c.Profile = "p.json" }, "is one client version's profile"},
		{"format", func(c *Command) { c.Format = "yaml" }, "yaml"},
		{"matrix", func(c *Command) { c.MatrixName = "no-such-matrix.json" }, "-matrix: "},
		{"out a file", func(c *Command) { c.Out = "command_test.go" }, "budget: -out command_test.go is not a directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := valid()
			tt.edit(&c)
			if err := c.Validate(t.Context()); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	c := valid()
	c.Settings = []string{"FAKE_WAIT=1s"}
	if err := c.Validate(t.Context()); err != nil {
		t.Fatal(err)
	}
	got := struct {
		Budgets []string
		Env     map[string]string
		Clients int
		Matrix  string
	}{c.Budgets, c.Env, len(c.Clients), c.Matrix.Name}
	want := struct {
		Budgets []string
		Env     map[string]string
		Clients int
		Matrix  string
	}{[]string{Wait}, map[string]string{"FAKE_WAIT": "1s"}, 1, "atlas"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("validated command mismatch (-want +got):\n%s", diff)
	}
}

// TestLateServerMatrix: the example matrix docs/budgets.md gives for a
// late server is valid; each row is one client's, whose script has the
// client's shell tool wait 65 s, past the longest hold (60 s) the wait
// budget's runs set; and a row that holds the server itself (for
// instrlab run) holds it past the wait budget measured of the client's
// profile, so that its server is late.
func TestLateServerMatrix(t *testing.T) {
	m, err := matrix.Load(t.Context(), filepath.Join("..", "..", "docs", "examples", "late-server.matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	builtin, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	if WaitSearch().Hi >= 65 {
		t.Fatalf("the longest hold, %v s, is not before the rows' 65 s wait", WaitSearch().Hi)
	}
	held := map[string]bool{}
	for _, r := range m.Rows {
		if len(r.Clients) != 1 || len(r.Script) != 1 || len(r.Script[0].Calls) > 0 {
			t.Errorf("row %s: clients %v, script %+v: want one client's row of one call", r.Name, r.Clients, r.Script)
			continue
		}
		if in := string(r.Script[0].Input); !strings.Contains(in, "sleep 65") && !strings.Contains(in, "65000)") {
			t.Errorf("row %s: input %s, want a wait of 65 s", r.Name, in)
		}
		c := r.Clients[0]
		if r.ReadyAfter == 0 {
			continue
		}
		if held[c] {
			t.Errorf("row %s: a second held row of %s", r.Name, c)
		}
		held[c] = true
		hold := r.ReadyAfter
		ps, err := profiles.Select(t.Context(), builtin, []string{c})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(ps[0].Budgets, func(b profiles.Budget) bool { return b.Name == Wait && len(b.Settings) == 0 })
		if i < 0 {
			t.Errorf("row %s: %s has no wait budget measured to hold past", r.Name, ps[0].ID())
			continue
		}
		// A client that waited the whole range (Above) is held past the
		// longest hold it waited for.
		b := ps[0].Budgets[i]
		edge := b.Past
		if b.Above {
			edge = b.Within
		}
		if hold.Seconds() <= edge {
			t.Errorf("row %s: held %s, not past the wait budget of %s (%.2f–%.2f s)", r.Name, hold, ps[0].ID(), b.Within, b.Past)
		}
	}
}

// TestMeasureRowOfAnotherClient: a probe row that runs for other clients
// only (late-codex calls Codex's own shell tool) is refused before any
// run, naming whose it is, instead of a search whose every run ran
// nothing.
func TestMeasureRowOfAnotherClient(t *testing.T) {
	m, err := matrix.Load(t.Context(), filepath.Join("..", "..", "docs", "examples", "late-server.matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	c := &fakeclient.Client{Version: "1"}
	o := Options{Client: c, Matrix: m, Row: "late-codex", Out: t.TempDir(), Timeout: time.Second}
	ms, err := Measure(context.Background(), o, []string{Wait})
	want := `row "late-codex" of matrix "late-server" is for codex only, not ` + c.Spec().Name
	if err == nil || err.Error() != want || len(ms) != 0 {
		t.Errorf("Measure = %d measurements, %v; want none and %q", len(ms), err, want)
	}
}

// TestMeasuredSomething: a budget command whose every measurement read
// nothing (its first run failed, or no run) is an error naming why, so
// that it does not exit 0 (on main, budget -out FILE did, having measured
// nothing); one that read anything is not.
func TestMeasuredSomething(t *testing.T) {
	failedFirst := Measurement{Client: "a@1", Budget: Wait, Runs: 1, Failed: "cannot create the run's directory", Steps: []Outcome{{Value: 1, Failed: "cannot create the run's directory"}}}
	within := Outcome{Value: 1, Within: true}
	partial := Measurement{Client: "a@1", Budget: Wait, Runs: 2, Failed: "timed out", Within: 1, Steps: []Outcome{within, {Value: 4, Failed: "timed out"}}}
	whole := Measurement{Client: "b@1", Budget: Wait, Runs: 1, Within: 1, Above: true, Steps: []Outcome{within}}
	for _, tt := range []struct {
		name string
		all  []Measurement
		want string // "" for no error
	}{
		{"none", nil, "nothing was measured (no budget)"},
		{"every first run failed", []Measurement{failedFirst, {Client: "b@1", Budget: Wait}}, "nothing was measured (a@1 wait: cannot create the run's directory; b@1 wait: no run)"},
		{"a failure after a run that told something", []Measurement{failedFirst, partial}, ""},
		{"one measured", []Measurement{failedFirst, whole}, ""},
	} {
		err := measuredSomething(tt.all)
		if got := fmt.Sprint(err); tt.want == "" && err != nil || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
