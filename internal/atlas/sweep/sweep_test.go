package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/atlas"

	"github.com/google/go-cmp/cmp"
	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/fakeclient"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix"
)

// TestMain lets this test binary act as the fake client and as the lab
// server it starts (see fakeclient).
func TestMain(m *testing.M) {
	fakeclient.Main()
	os.Exit(m.Run())
}

// fakeHistory is the fake client at versions 1.0.0 to 1.0.(n-1): its cap
// is 2,048 characters, 4,096 from 1.0.12, and 2,048 again from 1.0.30
// (a change and a change back); 1.0.33 and 1.0.34 crash.
type fakeHistory struct {
	n        int
	mu       sync.Mutex
	installs map[string]int
}

func (h *fakeHistory) versions() []string {
	var vs []string
	for i := 0; i < h.n; i++ {
		vs = append(vs, fmt.Sprintf("1.0.%d", i))
	}
	return vs
}

func (h *fakeHistory) newClient(spec string) (client.Client, error) {
	s, err := client.ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	i, _ := strconv.Atoi(s.Version[strings.LastIndex(s.Version, ".")+1:])
	env := map[string]string{"FAKE_CAP": "2048"}
	if i >= 12 && i < 30 {
		env["FAKE_CAP"] = "4096"
	}
	if i == 33 || i == 34 {
		env["FAKE_MODE"] = "crash"
	}
	h.mu.Lock()
	h.installs[s.Version]++
	h.mu.Unlock()
	exe, _ := os.Executable()
	return &fakeclient.Client{Exe: exe, Version: s.Version, Env: env}, nil
}

// probeMatrix is the atlas matrix's row that shows the fake client's one
// changing property, its cap (en-6000): every run is the race-built test
// binary twice (client and lab), so each row more cost about a minute of
// CPU in CI's -race run; the other rows (placement, both eras, a slow
// server) are the same at every fake version and are the atlas's own.
func probeMatrix() *matrix.Matrix {
	m := matrix.Atlas()
	var rows []matrix.Row
	for _, r := range m.Rows {
		if r.Name == "en-6000" {
			rows = append(rows, r)
		}
	}
	m.Rows = rows
	return m
}

func newSweep(t *testing.T, out string, h *fakeHistory) *Sweep {
	exe, _ := os.Executable()
	return &Sweep{Out: out, Lab: exe, Jobs: 2, Timeout: 30 * time.Second, Matrix: probeMatrix(), NewClient: h.newClient, Progress: new(strings.Builder)}
}

func TestSweepFakeClientFindsChangeAndChangeBack(t *testing.T) {
	h := &fakeHistory{n: 40, installs: map[string]int{}}
	out := t.TempDir()
	s := newSweep(t, out, h)
	s.Confirm = true
	tl, err := s.Timeline(context.Background(), "fake", "all", h.versions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tl.Changes {
		got = append(got, fmt.Sprintf("%s→%s exact=%v confirmed=%v %v", c.Before, c.First, c.Exact, c.Confirmed, c.Props))
	}
	want := []string{
		`1.0.11→1.0.12 exact=true confirmed=true [cap: 2048 characters → 4096 characters]`,
		`1.0.29→1.0.30 exact=true confirmed=true [cap: 4096 characters → 2048 characters]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("changes mismatch (-want +got):\n%s\nprogress:\n%s", diff, s.Progress)
	}
	first := 0
	for _, p := range tl.Points {
		if p.Attempt == 1 {
			first++
		}
	}
	if max := versionBound(2, 40); first > max {
		t.Errorf("ran %d versions, over 4(k+1)log2(n) = %d", first, max)
	}
	// Every value links to a run directory that exists.
	for _, seg := range tl.Segments {
		for _, p := range seg.Props {
			if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(p.Evidence), "run.json")); err != nil {
				t.Errorf("segment %s..%s: %s evidence %q: %v", seg.From, seg.To, p.Name, p.Evidence, err)
			}
		}
	}
	// The crashing versions, if probed, are could-not-run, never a change.
	for _, p := range tl.Points {
		if (p.Version == "1.0.33" || p.Version == "1.0.34") && p.Ran() {
			t.Errorf("crashing version %s recorded as run: %+v", p.Version, p.Props)
		}
	}
}

func TestSweepResumesWithoutRunningAgain(t *testing.T) {
	h := &fakeHistory{n: 20, installs: map[string]int{}}
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	s := newSweep(t, out, h)
	probes := 0
	s.NewClient = func(spec string) (client.Client, error) {
		if probes++; probes == 4 {
			cancel() // stopped during the fourth version
		}
		return h.newClient(spec)
	}
	if _, err := s.Timeline(ctx, "fake", "all", h.versions()); err == nil || !strings.Contains(err.Error(), "resume") {
		t.Fatalf("stopped sweep: %v, want an error that says how to resume", err)
	}
	saved, _ := os.ReadDir(evidence.SweepDir(out).Points("fake"))
	if len(saved) != 3 {
		t.Fatalf("%d points saved before the stop, want 3", len(saved))
	}
	h2 := &fakeHistory{n: 20, installs: map[string]int{}}
	s2 := newSweep(t, out, h2)
	tl, err := s2.Timeline(context.Background(), "fake", "all", h2.versions())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range saved {
		v := strings.TrimSuffix(e.Name(), ".json")
		if h2.installs[v] != 0 {
			t.Errorf("resumed sweep probed %s again", v)
		}
	}
	if len(tl.Changes) != 1 || tl.Changes[0].First != "1.0.12" {
		t.Errorf("resumed sweep's changes: %+v", tl.Changes)
	}
	// A torn point file is an error naming it, not a silent re-probe.
	bad := evidence.SweepDir(out).Point("fake", "1.0.0", 1)
	os.WriteFile(bad, []byte("{"), 0o644)
	if _, err := newSweep(t, out, h2).Timeline(context.Background(), "fake", "all", h2.versions()); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("torn point: %v, want an error naming %s", err, bad)
	}
}

// TestStoppedSweepWritesAPartialAtlas stops a sweep mid-way: the atlas of
// what was measured is written, says it is partial, and the command's error
// says how to resume.
func TestStoppedSweepWritesAPartialAtlas(t *testing.T) {
	h := &fakeHistory{n: 20, installs: map[string]int{}}
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	s := newSweep(t, out, h)
	probes := 0
	s.NewClient = func(spec string) (client.Client, error) {
		if probes++; probes == 3 {
			cancel()
		}
		return h.newClient(spec)
	}
	tg, _ := ParseTarget("fake@all")
	published := func(context.Context, string) ([]string, error) { return h.versions(), nil }
	_, err := s.Atlas(ctx, []Target{tg}, matrix.Shard{}, published, "instrlab sweep -client fake@all")
	if err == nil || !strings.Contains(err.Error(), "resume") {
		t.Fatalf("stopped sweep: %v", err)
	}
	a, rerr := atlas.Read(t.Context(), evidence.SweepDir(out).Atlas())
	if rerr != nil {
		t.Fatal(rerr)
	}
	if !a.Partial || len(a.Timelines) != 1 || a.Timelines[0].Ran != 2 {
		t.Errorf("partial atlas: partial=%v timelines=%d", a.Partial, len(a.Timelines))
	}
	md, _ := os.ReadFile(evidence.SweepDir(out).AtlasMD())
	if !strings.Contains(string(md), "**Partial:**") {
		t.Errorf("atlas.md does not say it is partial:\n%s", md)
	}
}

// TestSweepStopsWhenAPointCannotBeSaved: a point that cannot be written
// (here its temporary file's name is taken by a folder; a full disk fails
// the same way) stops
// the sweep with the error, rather than measuring on without a record.
func TestSweepStopsWhenAPointCannotBeSaved(t *testing.T) {
	h := &fakeHistory{n: 3, installs: map[string]int{}}
	out := t.TempDir()
	if err := os.MkdirAll(evidence.SweepDir(out).Point("fake", "1.0.0", 1)+".tmp", 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := newSweep(t, out, h).Timeline(context.Background(), "fake", "all", h.versions())
	if err == nil || !strings.Contains(err.Error(), "saving the point of fake@1.0.0") {
		t.Errorf("sweep with an unwritable points folder: %v", err)
	}
}

// versionBound is the bound on versions run that atlas's bisect_test holds
// Bisect to: 4 (k+1) log2 n for k changes in n versions.
func versionBound(k, n int) int { return int(4 * float64(k+1) * math.Log2(float64(n))) }

// TestSweepKeepsReleaseDates: the atlas keeps the release date of each
// version the selector picked, none of the others, read back from the file;
// a registry that cannot list them costs the dates only, and says so.
func TestSweepKeepsReleaseDates(t *testing.T) {
	h := &fakeHistory{n: 6, installs: map[string]int{}}
	out := t.TempDir()
	s := newSweep(t, out, h)
	s.Released = func(context.Context, string) (map[string]string, error) {
		return map[string]string{"1.0.0": "2026-01-01", "1.0.2": "2026-02-03", "1.0.3": "2026-02-04", "9.9.9": "2027-01-01"}, nil
	}
	tg, err := ParseTarget("fake@1.0.2..1.0.4")
	if err != nil {
		t.Fatal(err)
	}
	published := func(context.Context, string) ([]string, error) { return h.versions(), nil }
	if _, err := s.Atlas(t.Context(), []Target{tg}, matrix.Shard{}, published, "instrlab sweep -client fake@1.0.2..1.0.4"); err != nil {
		t.Fatal(err)
	}
	a, err := atlas.Read(t.Context(), evidence.SweepDir(out).Atlas())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"1.0.2": "2026-02-03", "1.0.3": "2026-02-04"}, a.Timelines[0].Released); diff != "" {
		t.Errorf("release dates kept (-want +got):\n%s", diff)
	}

	h2 := &fakeHistory{n: 6, installs: map[string]int{}}
	out2 := t.TempDir()
	s2 := newSweep(t, out2, h2)
	s2.Released = func(context.Context, string) (map[string]string, error) {
		return nil, errors.New(`listing the release dates of fake: the registry gives no "created" time`)
	}
	if _, err := s2.Atlas(t.Context(), []Target{tg}, matrix.Shard{}, published, "c"); err != nil {
		t.Fatalf("a sweep whose dates cannot be listed: %v", err)
	}
	b, err := atlas.Read(t.Context(), evidence.SweepDir(out2).Atlas())
	if err != nil {
		t.Fatal(err)
	}
	if tl := b.Timelines[0]; tl.Released != nil || tl.Ran == 0 {
		t.Errorf("without dates: released %v, %d run", tl.Released, tl.Ran)
	}
	if p := s2.Progress.(*strings.Builder).String(); !strings.Contains(p, `fake: no release dates kept: listing the release dates of fake: the registry gives no "created" time`) {
		t.Errorf("progress does not say why no dates were kept:\n%s", p)
	}
}
