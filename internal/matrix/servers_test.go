package matrix

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/lab"
)

func TestRowServerName(t *testing.T) {
	for in, want := range map[string]string{"": "lab", "server-everything": "server-everything", "my server.v2": "my-server-v2", "../..": "server"} {
		if got := (Row{Server: in}).ServerName(); got != want {
			t.Errorf("Row{Server: %q}.ServerName() = %q, want %q", in, got, want)
		}
	}
}

// TestHold: a late-start row per stdio server named, its init_delay
// passed to the proxy as -hold; a server row cannot hold server/discover
// as the lab does.
func TestHold(t *testing.T) {
	m := ForServers([]string{"everything", "notes"})
	m.Hold([]string{"everything"}, 8*time.Second)
	if len(m.Rows) != 3 {
		t.Fatalf("%d rows, want both servers as they are and everything held", len(m.Rows))
	}
	r := m.Rows[2]
	if r.Name != "everything-held8s" || r.Server != "everything" || r.InitDelay != 8*time.Second || r.Instr != "none" {
		t.Errorf("held row %+v", r)
	}
	args := strings.Join(r.ProxyArgs("/run/lab.jsonl", "/tmp/cmd.json"), " ")
	if !strings.HasSuffix(args, " -hold 8s") || strings.Contains(strings.Join(m.Rows[0].ProxyArgs("l", "c"), " "), "-hold") {
		t.Errorf("proxy args %q: want -hold 8s on the held row only", args)
	}
	if err := m.Validate(); err != nil {
		t.Errorf("held rows: %v", err)
	}
	m.Rows[2].DiscoverDelay = 8 * time.Second
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), "discover_delay") {
		t.Errorf("a server row with discover_delay: %v, want an error naming it", err)
	}
}

// TestServers24000Matrix: the example matrix of docs/clients.md ("Beyond
// 6,500") loads, and its servers' texts pass 6,500 characters together,
// with zeta alone over Claude Code 2.1.328's 4,096 and the others under it.
func TestServers24000Matrix(t *testing.T) {
	m, err := Load(t.Context(), "../../docs/examples/servers-24000.matrix.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Rows {
		total := 0
		for _, s := range r.LabServers() {
			in, err := lab.ParseInstructions(s.Instr)
			if err != nil {
				t.Fatal(err)
			}
			tx, err := in.For(lab.ReplyInitialize)
			if err != nil {
				t.Fatal(err)
			}
			n := len([]rune(tx.Text))
			if over := n > 4096; over != (s.Name == "zeta") {
				t.Errorf("%s: %s has %d characters", r.Name, s.Name, n)
			}
			total += n
		}
		if total != 24000 {
			t.Errorf("%s: %d characters together, want 24,000", r.Name, total)
		}
	}
}

// TestExampleMatricesLoad: every matrix in docs/examples, which the docs'
// commands name, loads as run and budget read it, with rows.
func TestExampleMatricesLoad(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "examples", "*.matrix.json"))
	if err != nil || len(files) < 4 {
		t.Fatalf("examples: %v, %v", files, err)
	}
	for _, f := range files {
		m, err := Load(t.Context(), f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(m.Rows) == 0 {
			t.Errorf("%s: no rows", f)
		}
	}
}
