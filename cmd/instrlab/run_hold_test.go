package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/lab"
)

// TestRunServerHold: run -hold adds a late-start row for a user's server,
// in which the recording proxy holds the server's initialize result: the
// proxy's log shows it sent at least the hold after the client asked, and
// the row as it is does not.
func TestRunServerHold(t *testing.T) {
	const hold = 2 * time.Second
	out := t.TempDir()
	args := []string{"run", "-client", "fake@1", "-lab", binary, "-netns", "off", "-format", "md", "-out", out,
		"-hold", hold.String(), "-server", "--", binary, "serve", "lab", "-instr", "ascii:1000"}
	var stderr bytes.Buffer
	if err := run(context.Background(), args, io.Discard, &stderr); err != nil {
		t.Fatalf("run -hold: %v\n%s", err, stderr.String())
	}
	rs := readResults(t, out)
	if len(rs) != 2 {
		t.Fatalf("%d results, want the server as it is and held", len(rs))
	}
	for _, r := range rs {
		if r.Status != "ok" {
			t.Errorf("%s: %s (%s)", r.Row, r.Status, r.Reason)
		}
		msgs, _, err := analyze.ReadLabLog(evidence.RunDir(r.Dir).LabLog())
		if err != nil {
			t.Fatal(err)
		}
		var asked, answered time.Time
		for _, m := range msgs {
			switch {
			case m.Method == lab.Legacy.Method() && m.Dir == lab.Recv && asked.IsZero():
				asked = m.Time
			case m.Method == lab.Legacy.Method() && m.Dir == lab.Send && m.Kind == lab.KindResponse && answered.IsZero():
				answered = m.Time
			}
		}
		if asked.IsZero() || answered.IsZero() {
			t.Fatalf("%s: no initialize request and result in the proxy's log", r.Row)
		}
		wait := answered.Sub(asked)
		if held := strings.HasSuffix(r.Row, "-held"+hold.String()); held != (wait >= hold) {
			t.Errorf("%s: initialize answered %v after it was asked; held %v", r.Row, wait, held)
		}
	}
}

// TestRunHoldUsage: -hold is for a user's server, and not negative.
func TestRunHoldUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "-hold", "8s"},
		{"run", "-hold", "-1s", "-server", "--", "x"},
		{"serve", "proxy", "-hold", "-1s", "--", "x"},
		{"serve", "proxy", "-hold", "8s", "-http", ":0", "-upstream", "http://127.0.0.1:1/mcp"},
	} {
		var stderr bytes.Buffer
		if code := exitCode(run(context.Background(), args, io.Discard, &stderr), &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (%s)", args, code, exitUsage, stderr.String())
		}
	}
}
