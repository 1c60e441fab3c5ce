package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBenchUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-spawns", "0"}, "-spawns must be at least 1"},
		{[]string{"-rounds", "-1"}, "-rounds must not be negative"},
		{[]string{"-requests", "0"}, "-requests must be at least 1"},
		{[]string{"-format", "xml"}, `-format "xml"`},
		{[]string{"lab"}, "want NAME=COMMAND"},
		{[]string{"a=x", "a=y"}, `two servers named "a"`},
		{[]string{"-throughput", "b", "a=x"}, `-throughput names "b"`},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), append([]string{"bench"}, tc.args...), &stdout, &stderr)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("bench %q = %v, want a usage error containing %q", tc.args, err, tc.want)
		}
	}
}

// TestBenchLab measures the real lab binary, briefly, and checks what the
// JSON report says about it.
func TestBenchLab(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"bench", "-spawns", "2", "-rounds", "1", "-requests", "300", "-format", "json",
		"lab=" + binary + " serve lab -log {log}"}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("bench: %v\n%s", err, stderr.String())
	}
	var report struct {
		Results []struct {
			Name       string            `json:"name"`
			Startups   []json.RawMessage `json:"startups"`
			Throughput []struct {
				Log struct{ Lines, Recv, Sent int } `json:"log"`
			} `json:"throughput"`
			PeakRSS int64 `json:"peak_rss_bytes"`
		} `json:"results"`
		Targets []struct {
			Goal string `json:"goal"`
			Met  bool   `json:"met"`
		} `json:"targets"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("bench -format json: %v\n%s", err, stdout.String())
	}
	if len(report.Results) != 1 {
		t.Fatalf("got %d results, want 1", len(report.Results))
	}
	r := report.Results[0]
	if r.Name != "lab" || len(r.Startups) != 2 || len(r.Throughput) != 1 || r.PeakRSS <= 0 {
		t.Errorf("got %s with %d startups, %d throughput runs, peak %d bytes; want lab, 2, 1, a positive peak", r.Name, len(r.Startups), len(r.Throughput), r.PeakRSS)
	}
	if len(r.Throughput) == 1 {
		// Every tools/list logged both ways, besides the lab's start (1 line),
		// initialize (2) and notifications/initialized (1).
		got := r.Throughput[0].Log
		want := struct{ Lines, Recv, Sent int }{Lines: 2*300 + 4, Recv: 300, Sent: 300}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("message log mismatch (-want +got):\n%s", diff)
		}
	}
	for _, tg := range report.Targets {
		if strings.Contains(tg.Goal, "logs every request") && !tg.Met {
			t.Errorf("target %q not met", tg.Goal)
		}
	}
}
