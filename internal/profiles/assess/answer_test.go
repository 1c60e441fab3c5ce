package assess

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/testutil"
)

// readProbe reads a probe result fixture (testdata/README.md): a
// probe.Result with each tool's schemas beside it, which probe.Result's
// JSON leaves out.
func readProbe(t *testing.T, name string) probe.Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var r probe.Result
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	type tool struct {
		InputSchema  json.RawMessage `json:"input_schema"`
		OutputSchema json.RawMessage `json:"output_schema"`
	}
	var schemas struct {
		Legacy, Modern struct{ Tools []tool }
	}
	if err := json.Unmarshal(data, &schemas); err != nil {
		t.Fatal(err)
	}
	for _, e := range []struct {
		era   *probe.EraResult
		tools []tool
	}{{&r.Legacy, schemas.Legacy.Tools}, {&r.Modern, schemas.Modern.Tools}} {
		for i := range e.era.Tools {
			e.era.Tools[i].InputSchema, e.era.Tools[i].OutputSchema = e.tools[i].InputSchema, e.tools[i].OutputSchema
		}
	}
	return r
}

// TestAnswerGolden: the default output for the lab with 6,000 characters
// of instructions, a real server of 13 tools (server-everything) and a
// server that starts in 1.5 s, against every built-in profile, at 80
// columns: at most 40 lines, no line wider, every client named once in
// the verdicts (one line each, its older versions and other ways under
// it), no finding's text printed twice.
func TestAnswerGolden(t *testing.T) {
	all, err := profiles.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	ps := profiles.Expand(all)
	for _, name := range []string{"lab-6000", "everything", "slow"} {
		t.Run(name, func(t *testing.T) {
			r := readProbe(t, name+".probe.json")
			rep := Assess([]probe.Result{r}, Options{Profiles: ps, Timeout: probe.DefaultTimeout})
			var b bytes.Buffer
			if err := WriteText(&b, rep, TextOptions{Width: 80}); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			testutil.Golden(t, filepath.Join("testdata", name+".txt"), b.Bytes(), *update)
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) > 40 {
				t.Errorf("%d lines, want at most 40", len(lines))
			}
			for _, l := range lines {
				if w := table.DisplayWidth(l); w > 80 {
					t.Errorf("a line %d wide: %q", w, l)
				}
			}
			flat := strings.Join(strings.Fields(out), " ")
			for _, c := range clientNames(all) {
				if n := strings.Count(flat, "  "+c+" ") + strings.Count(flat, " "+c+" "); n == 0 {
					t.Errorf("client %s is not named", c)
				}
			}
			// Each client is named on exactly one verdict line (its own,
			// or one it shares with clients of the same verdict and loss:
			// mergeAlike), continuation lines included, ways (↳) apart.
			var entries []string
			in := false
			for _, l := range lines {
				switch {
				case strings.HasPrefix(l, "verdict "):
					in = true
				case l == "":
					in = false
				case in && strings.Contains(l, "↳"):
					entries = append(entries, "")
				case in && !strings.HasPrefix(l, " "):
					entries = append(entries, l)
				case in && len(entries) > 0 && entries[len(entries)-1] != "":
					entries[len(entries)-1] += " " + strings.TrimSpace(l)
				}
			}
			for _, c := range clientNames(all) {
				n := 0
				for _, e := range entries {
					if strings.Contains(e, " "+c+" ") {
						n++
					}
				}
				if n != 1 {
					t.Errorf("client %s is named on %d verdict lines, want 1", c, n)
				}
			}
			for _, f := range rep.Servers[0].Findings {
				if m := strings.Join(strings.Fields(f.Message), " "); len(m) > 30 && strings.Count(flat, m) > 1 {
					t.Errorf("finding printed twice: %q", m)
				}
			}
		})
	}
}

// clientNames are the clients of the profiles, by name, once each.
func clientNames(ps []profiles.Profile) []string {
	var out []string
	for _, p := range ps {
		if len(out) == 0 || out[len(out)-1] != p.Name {
			out = append(out, p.Name)
		}
	}
	return out
}
