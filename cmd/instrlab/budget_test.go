package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/budget"
	"github.com/instrlab/instrlab/internal/profiles"
)

func TestBudgetUsageErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "-client is required"},
		{[]string{"-client", "fake@1"}, "-out is required"},
		{[]string{"-client", "fake@1", "-out", "x", "-budget", "patience"}, `-budget "patience"`},
		{[]string{"-client", "fake@1", "-out", "x", "-env", "NOEQUALS"}, `-env "NOEQUALS": want NAME=VALUE`},
		{[]string{"-client", "fake@1", "-out", "x", "-format", "pdf"}, `"pdf"`},
		{[]string{"-client", "fake@1", "-client", "fake@2", "-out", "x", "-profile", "p.json"}, "is one client version's profile"},
		{[]string{"-client", "fake@1", "-out", "x", "-timeout", "0s"}, "-timeout must be positive"},
		{[]string{"-client", "fake@1", "-out", "x", "-profile", "/no/such.json"}, "-profile: reading profile"},
		{[]string{"-client", "fake@1", "-out", "x", "-profile", "../../internal/profiles/data/claude-code@2.1.328.json"}, "is the profile of claude-code@2.1.328, not fake@1"},
		{[]string{"-client", "nope@1", "-out", "x"}, `-client: client "nope": unknown`},
		{[]string{"-client", "fake@1", "-out", "x", "-matrix", "/no/such.json"}, "-matrix: reading matrix"},
		{[]string{"-client", "fake@1", "-out", "x", "extra"}, `unexpected argument "extra"`},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), append([]string{"budget"}, tt.args...), &stdout, &stderr)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &ue) {
			t.Errorf("budget %q = %v, want a usage error containing %q", tt.args, err, tt.want)
		}
	}
}

// TestBudgetWritesTheProfile: instrlab budget measures the fake client's
// wait budget, given as a setting (-env FAKE_WAIT=1500ms), prints it and
// writes it into the client version's profile.
func TestBudgetWritesTheProfile(t *testing.T) {
	src, err := os.ReadFile("../../internal/profiles/data/claude-code@2.1.328.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := profiles.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	// The budgets of the profile copied are another client's.
	p.Client, p.Version, p.Name, p.Budgets = "fake", "1", "Fake", nil
	data, err := profiles.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "fake@1.json")
	os.WriteFile(path, data, 0o644)
	var stdout, stderr bytes.Buffer
	args := []string{"budget", "-client", "fake@1", "-env", "FAKE_WAIT=1500ms", "-out", t.TempDir(), "-lab", binary, "-format", "json", "-profile", path, "-netns", "off"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("budget: %v\n%s", err, stderr.String())
	}
	var ms []budget.Measurement
	if err := json.Unmarshal(stdout.Bytes(), &ms); err != nil || len(ms) != 1 {
		t.Fatalf("%v, %d measurements:\n%s", err, len(ms), stdout.String())
	}
	m := ms[0]
	if m.Failed != "" || !(m.Within < 1.5+0.15 && 1.5-0.15 < m.Past) || m.Settings["FAKE_WAIT"] != "1500ms" {
		t.Errorf("measured %+v, want 1.5 s inside, within 150 ms, under FAKE_WAIT=1500ms", m)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	q, err := profiles.Parse(after)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Budgets) != 1 || q.Budgets[0].Within != m.Within || q.Budgets[0].Runs != m.Runs || !strings.HasPrefix(q.Budgets[0].Command, "instrlab budget -client fake@1") {
		t.Errorf("profile budgets %+v, want the measurement", q.Budgets)
	}
}
