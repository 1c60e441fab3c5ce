package lab

import (
	"testing"
	"time"
)

func TestStartFrom(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	// A command name with a space and a parenthesis; starttime 12345
	// ticks (123.45 s after boot), uptime 125.00 s: started 1.55 s ago.
	stat := []byte("4242 (instr lab) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 8 0 12345 800000 500 18446744073709551615")
	got, ok := startFrom(stat, []byte("125.00 240.10\n"), now)
	if !ok || !got.Equal(now.Add(-1550*time.Millisecond)) {
		t.Errorf("startFrom = %v, %v; want %v, true", got, ok, now.Add(-1550*time.Millisecond))
	}
	for _, bad := range [][2]string{
		{"4242 no paren S 1", "125.00 1"},
		{"4242 (lab) S 1 2 3", "125.00 1"},
		{string(stat), ""},
		{string(stat), "x 1"},
		{"4242 (lab) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 8 0 99999999 800000", "125.00 1"}, // started after now
	} {
		if _, ok := startFrom([]byte(bad[0]), []byte(bad[1]), now); ok {
			t.Errorf("startFrom(%q, %q) = ok, want not", bad[0], bad[1])
		}
	}
}

func TestProcessStartIsThisProcess(t *testing.T) {
	start, how := ProcessStart()
	if how != StartKernel {
		t.Fatalf("ProcessStart read %q, want the kernel's record on Linux", how)
	}
	if d := time.Since(start); d < 0 || d > time.Hour {
		t.Errorf("this test process started %v ago, by ProcessStart", d)
	}
}
