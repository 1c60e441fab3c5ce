package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles/assess"
)

// checkNPM pins the third-party npm packages the end-to-end tests and the
// benchmark run: three reference servers, a third-party server that sets
// instructions (Context7; it starts and lists its tools offline), the MCP Inspector (for the
// comparison), and a Node 22 binary, which the Inspector needs (>=22.19).
const checkNPM = `{
  "private": true,
  "dependencies": {
    "@modelcontextprotocol/inspector": "2.12.0",
    "@modelcontextprotocol/server-everything": "2026.8.31",
    "@modelcontextprotocol/server-filesystem": "2026.8.31",
    "@modelcontextprotocol/server-memory": "2026.8.31",
    "@upstash/context7-mcp": "4.1.1",
    "node": "22.23.3"
  }
}
`

// npmDir installs checkNPM once into the user cache directory and returns
// the directory. Without INSTRLAB_E2E=1 the test is skipped.
func npmDir(tb testing.TB) string {
	tb.Helper()
	if os.Getenv("INSTRLAB_E2E") != "1" {
		tb.Skip("set INSTRLAB_E2E=1 to run against npm servers (installs pinned packages into the user cache)")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		tb.Fatal(err)
	}
	dir := filepath.Join(cache, "instrlab", "check-npm")
	stamp := filepath.Join(dir, "stamp")
	if s, err := os.ReadFile(stamp); err == nil && string(s) == checkNPM {
		return dir
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(checkNPM), 0o644); err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("npm install in %s: %v\n%s", dir, err, out)
	}
	if err := os.WriteFile(stamp, []byte(checkNPM), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func nodeBin(dir string) string { return filepath.Join(dir, "node_modules", ".bin", "node") }

func npmServer(dir, name string) string {
	return filepath.Join(dir, "node_modules", "@modelcontextprotocol", name, "dist", "index.js")
}

// checkJSON runs check -json and decodes the report.
func checkJSON(t *testing.T, args ...string) (assess.Report, int) {
	t.Helper()
	out, stderr, code := runCheckTest(t, append([]string{"-json"}, args...)...)
	var rep assess.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("decoding the report: %v\nstderr:\n%s", err, stderr)
	}
	return rep, code
}

// TestCheckE2EEverything checks @modelcontextprotocol/server-everything
// over stdio: a legacy TypeScript server with instructions and many tools.
// Its HTTP mode listens on every interface, so it is not run here.
func TestCheckE2EEverything(t *testing.T) {
	dir := npmDir(t)
	rep, code := checkJSON(t, "-timeout", "30s", "-name", "everything", "--", nodeBin(dir), npmServer(dir, "server-everything"), "stdio")
	if code != 0 {
		t.Fatalf("exit %d: %+v", code, rep.Servers[0].Findings)
	}
	s := rep.Servers[0]
	if !s.Legacy.OK() || s.Legacy.Instructions == nil || len(s.Legacy.Tools) < 5 {
		t.Errorf("legacy: %s, instructions %v, %d tools", s.Legacy.Outcome, s.Legacy.Instructions != nil, len(s.Legacy.Tools))
	}
	if s.Survival.Verdict != probe.SurvivalMethodNotFound || s.Survival.Fallback == nil || s.Survival.Fallback.Outcome != probe.OutcomeOK {
		t.Errorf("probe survival %+v, want -32601 and a working fallback", s.Survival)
	}
	if v := s.Views[0]; v.Era != probe.Legacy || !v.Present {
		t.Errorf("Claude Code view: era %q, present %v", v.Era, v.Present)
	}
}

// TestCheckE2EFilesystem checks @modelcontextprotocol/server-filesystem
// over stdio: no instructions, many tools.
func TestCheckE2EFilesystem(t *testing.T) {
	dir := npmDir(t)
	root := t.TempDir()
	rep, code := checkJSON(t, "-timeout", "30s", "-name", "filesystem", "--", nodeBin(dir), npmServer(dir, "server-filesystem"), root)
	if code != 0 {
		t.Fatalf("exit %d: %+v", code, rep.Servers[0].Findings)
	}
	s := rep.Servers[0]
	if !s.Legacy.OK() || s.Legacy.Instructions != nil || len(s.Legacy.Tools) < 5 {
		t.Errorf("legacy: %s, instructions %v, %d tools", s.Legacy.Outcome, s.Legacy.Instructions, len(s.Legacy.Tools))
	}
	var codes []string
	for _, f := range s.Findings {
		codes = append(codes, string(f.Code))
	}
	if !strings.Contains(strings.Join(codes, " "), "no-instructions") {
		t.Errorf("findings %v lack no-instructions", codes)
	}
}

// BenchmarkCheck is the wall time of a full check (both eras, profiles,
// tokens, JSON) of a local stdio Go server, the lab in the dual era: the
// instrlab binary as a process, as a user or CI runs it.
func BenchmarkCheck(b *testing.B) {
	args := []string{"check", "-json", "--", binary, "serve", "lab", "-eras", "legacy,modern"}
	for b.Loop() {
		if out, err := exec.Command(binary, args...).CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
	}
}

// BenchmarkCheckVsInspector runs, in each iteration, a full check of the
// lab (both eras; the instrlab binary) and the MCP Inspector CLI's --method
// initialize (one era) on the same server, interleaved, and reports the
// median wall time of each and the ratio of the medians. Needs
// INSTRLAB_E2E=1 (for the pinned Inspector).
func BenchmarkCheckVsInspector(b *testing.B) {
	dir := npmDir(b)
	inspector := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	server := []string{binary, "serve", "lab", "-eras", "legacy,modern"}
	checkArgs := append([]string{"check", "-json", "--"}, server...)
	inspArgs := append([]string{inspector, "--cli", "--method", "initialize", "--"}, server...)
	c, i := interleaved(b, func() {
		if out, err := exec.Command(binary, checkArgs...).CombinedOutput(); err != nil {
			b.Fatalf("check: %v\n%s", err, out)
		}
	}, func() {
		o, err := exec.Command(nodeBin(dir), inspArgs...).Output()
		if err != nil || !bytes.Contains(o, []byte(`"instructions"`)) {
			b.Fatalf("inspector: %v\n%s", err, o)
		}
	})
	b.ReportMetric(ms(c), "check-median-ms")
	b.ReportMetric(ms(i), "inspector-median-ms")
	b.ReportMetric(float64(i)/float64(c), "ratio")
}

// BenchmarkCheckVsBareClient runs, in each iteration, a full check of the
// one-tool go-sdk server (bareserver -tools 1; both eras, profiles, JSON)
// and the bare go-sdk client on the same server (bareclient: spawn,
// initialize, tools/list, close), both as processes, interleaved, and
// reports the median wall time of each and the ratio check/bare. The
// issue's goal is a ratio of at most 1.5 on a quiet machine. It needs no
// npm.
func BenchmarkCheckVsBareClient(b *testing.B) {
	dir := b.TempDir()
	server := []string{goBuild(b, dir, "bareserver"), "-tools", "1"}
	client := goBuild(b, dir, "bareclient")
	checkArgs := append([]string{"check", "-json", "--"}, server...)
	c, r := interleaved(b, func() {
		if out, err := exec.Command(binary, checkArgs...).CombinedOutput(); err != nil {
			b.Fatalf("check: %v\n%s", err, out)
		}
	}, func() {
		if out, err := exec.Command(client, server...).CombinedOutput(); err != nil {
			b.Fatalf("bareclient: %v\n%s", err, out)
		}
	})
	b.ReportMetric(ms(c), "check-median-ms")
	b.ReportMetric(ms(r), "bare-median-ms")
	b.ReportMetric(float64(c)/float64(r), "ratio")
}

// interleaved runs first and second in turn, once each an iteration of
// b, and returns the median wall time of each.
func interleaved(b *testing.B, first, second func()) (time.Duration, time.Duration) {
	var a, c []time.Duration
	for b.Loop() {
		start := time.Now()
		first()
		a = append(a, time.Since(start))
		start = time.Now()
		second()
		c = append(c, time.Since(start))
	}
	return median(a), median(c)
}

// goBuild builds the program internal/bench/name into dir, as TestMain
// builds binary, and returns its path.
func goBuild(tb testing.TB, dir, name string) string {
	tb.Helper()
	exe := filepath.Join(dir, name)
	out, err := exec.Command("go", "build", "-o", exe, "../../internal/bench/"+name).CombinedOutput()
	if err != nil {
		tb.Fatalf("building %s: %v\n%s", name, err, out)
	}
	return exe
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
