package budget

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/matrix"
)

// TestCommandValidate: each wrong value is refused before any run, the
// error naming its flag; a valid command gets its clients, settings,
// probe matrix and the wait budget by default.
func TestCommandValidate(t *testing.T) {
	newClients := func(specs []string) ([]client.Client, error) {
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
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := valid()
			tt.edit(&c)
			if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	c := valid()
	c.Settings = []string{"FAKE_WAIT=1s"}
	if err := c.Validate(); err != nil {
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
// late server is valid, and its row makes the request after the longest
// hold (60 s) that the wait budget's runs need.
func TestLateServerMatrix(t *testing.T) {
	m, err := matrix.Load(filepath.Join("..", "..", "docs", "examples", "late-server.matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	// en-1000-sleep65 for versions that run a plain sleep, en-1000-wait65
	// for those that block it (Claude Code 2.1.332).
	waits := []string{"sleep 65", "65000)"}
	if len(m.Rows) != len(waits) || WaitSearch().Hi >= 65 {
		t.Fatalf("rows %+v: want %d rows whose scripts wait past the longest hold", m.Rows, len(waits))
	}
	for i, w := range waits {
		if len(m.Rows[i].Script) != 1 || !strings.Contains(string(m.Rows[i].Script[0].Input), w) {
			t.Errorf("row %s: script %+v, want one call that waits 65 s (%s)", m.Rows[i].Name, m.Rows[i].Script, w)
		}
	}
}
