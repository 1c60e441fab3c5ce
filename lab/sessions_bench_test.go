package lab

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkHTTPIdleSessions opens one Streamable HTTP session per iteration
// (initialize, as a client that connects and then goes quiet) and leaves it
// idle, then reports what the idle sessions hold: live heap per open session and
// the process's resident memory, while they are open and once SessionIdle
// has closed them (abandoned sessions once grew RSS from 36 to 258 MiB over
// 13,500 sessions and never gave it back, issue 10):
//
//	go test ./lab -run '^$' -bench HTTPIdleSessions -benchtime 5000x
func BenchmarkHTTPIdleSessions(b *testing.B) {
	const idle = 10 * time.Second
	l, err := New(Config{Instructions: Instructions{Language: English, Length: 1000}, SessionIdle: idle})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()
	heap0, rss0 := liveHeap(), rss()
	for b.Loop() {
		if status, body := postBody(b, srv.URL, nil, initialize); status != http.StatusOK {
			b.Fatalf("initialize: %d %s", status, body)
		}
	}
	b.StopTimer()
	open := 0
	for range l.Server().Sessions() {
		open++
	}
	b.ReportMetric(float64(liveHeap()-heap0)/float64(max(open, 1)), "heap-B/open-session")
	b.ReportMetric(mb(rss()), "rss-MiB-open")
	b.ReportMetric(float64(open), "sessions-open")
	deadline := time.Now().Add(idle + 30*time.Second)
	for open > 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		open = 0
		for range l.Server().Sessions() {
			open++
		}
	}
	debug.FreeOSMemory()
	b.ReportMetric(float64(open), "sessions-left")
	b.ReportMetric(mb(rss()), "rss-MiB-expired")
	b.ReportMetric(mb(rss0), "rss-MiB-before")
}

// liveHeap is the heap in use after a collection.
func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// rss is the process's resident memory where the system tells it (Linux),
// else the memory the runtime holds from it.
func rss() int64 {
	if f, err := os.Open("/proc/self/status"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				return kb << 10
			}
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.Sys - m.HeapReleased)
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }
