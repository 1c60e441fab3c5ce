package runner

import (
	"testing"
	"time"
)

func TestCheckLimits(t *testing.T) {
	for _, tc := range []struct {
		jobs, repeats, sensitive int
		timeout, loadWait        time.Duration
		want                     string
	}{
		{2, 0, 0, time.Minute, 0, ""},
		{1, 3, 5, time.Second, time.Minute, ""},
		{0, 0, 0, time.Minute, 0, "-j must be at least 1"},
		{2, 0, 0, 0, 0, "-timeout must be positive"},
		{2, -1, 0, time.Minute, 0, "-repeats must be at least 1"},
		{2, 0, -1, time.Minute, 0, "-repeat-sensitive must not be negative"},
		{2, 0, 0, time.Minute, -time.Second, "-load-wait must not be negative"},
	} {
		err := CheckLimits(tc.jobs, tc.repeats, tc.sensitive, tc.timeout, tc.loadWait)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckLimits(%d, %d, %d, %v, %v) = %q, want %q", tc.jobs, tc.repeats, tc.sensitive, tc.timeout, tc.loadWait, got, tc.want)
		}
	}
}
