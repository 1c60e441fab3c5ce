package lab

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestReadyAfterCountsFromTheStart: ReadyAfter holds the handshake's reply
// until that long after the process started, not after the request came:
// a process that took 200 ms to start answers 100 ms after the request
// with ReadyAfter 300 ms, and one that took longer than that at once.
func TestReadyAfterCountsFromTheStart(t *testing.T) {
	for _, tc := range []struct {
		startup, readyAfter, initDelay, want time.Duration
	}{
		{startup: 200 * time.Millisecond, readyAfter: 300 * time.Millisecond, want: 100 * time.Millisecond},
		{startup: 500 * time.Millisecond, readyAfter: 300 * time.Millisecond, want: 0},
		{startup: 0, readyAfter: 0, want: 0},
		// InitDelay first, then up to ReadyAfter from the start.
		{startup: 100 * time.Millisecond, readyAfter: 1 * time.Second, initDelay: 200 * time.Millisecond, want: 900 * time.Millisecond},
		{startup: 100 * time.Millisecond, readyAfter: 200 * time.Millisecond, initDelay: 500 * time.Millisecond, want: 500 * time.Millisecond},
	} {
		synctest.Test(t, func(t *testing.T) {
			asked := time.Now()
			var out, logBuf bytes.Buffer
			l, err := New(Config{Instructions: Instructions{Language: English, Length: 100}, Started: asked.Add(-tc.startup),
				ReadyAfter: tc.readyAfter, InitDelay: tc.initDelay, Log: NewMessageLog(&logBuf)})
			if err != nil {
				t.Fatal(err)
			}
			if err := l.ServeStdio(context.Background(), strings.NewReader(initialize+"\n"), &out); err != nil {
				t.Fatal(err)
			}
			for _, e := range parseLog(t, logBuf.Bytes()) {
				if e.Dir == Send && e.Method == "initialize" {
					if got := e.Time.Sub(asked); got != tc.want {
						t.Errorf("started %v before the request, ready_after %v, init_delay %v: answered %v after it, want %v",
							tc.startup, tc.readyAfter, tc.initDelay, got, tc.want)
					}
					return
				}
			}
			t.Errorf("no initialize reply logged:\n%s", logBuf.String())
		})
	}
}
