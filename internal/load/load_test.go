package load

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"2.89 1.50 0.72 3/1200 4242\n", 2.89, true},
		{"0.00 0.00 0.00 1/1 1", 0, true},
		{"", 0, false},
		{"busy 1 1", 0, false},
		{"-1 0 0", 0, false},
	} {
		s, ok := parse([]byte(tc.in))
		if ok != tc.ok || s.One != tc.want {
			t.Errorf("parse(%q) = %v, %v; want %v, %v", tc.in, s.One, ok, tc.want, tc.ok)
		}
		if ok && s.CPUs != runtime.GOMAXPROCS(0) {
			t.Errorf("parse(%q).CPUs = %d, want GOMAXPROCS %d", tc.in, s.CPUs, runtime.GOMAXPROCS(0))
		}
	}
}

func TestNowMissingFile(t *testing.T) {
	old := loadavgPath
	defer func() { loadavgPath = old }()
	loadavgPath = filepath.Join(t.TempDir(), "none")
	if _, ok := Now(); ok {
		t.Error("Now without /proc/loadavg = ok, want not measured")
	}
	if got := Text(); got != "load average not measured" {
		t.Errorf("Text = %q", got)
	}
	loadavgPath = filepath.Join(t.TempDir(), "loadavg")
	os.WriteFile(loadavgPath, []byte("8.00 4.00 2.00 9/900 1\n"), 0o644)
	s, ok := Now()
	if !ok || s.One != 8 {
		t.Fatalf("Now = %v, %v", s, ok)
	}
	if got, want := s.PerCPU(), 8/float64(runtime.GOMAXPROCS(0)); got != want {
		t.Errorf("PerCPU = %v, want %v", got, want)
	}
}
