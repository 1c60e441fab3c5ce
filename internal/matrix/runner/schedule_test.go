package runner

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestSchedule: every run runs once; waiting runs go 2n at a time and
// reach that many at once (they do not take turns with busy runs), busy
// runs n at a time.
func TestSchedule(t *testing.T) {
	const n = 2
	var waiting, busy []int
	for i := 0; i < 10; i++ {
		waiting = append(waiting, i)
	}
	for i := 10; i < 17; i++ {
		busy = append(busy, i)
	}
	var mu sync.Mutex
	ran := map[int]int{}
	in := map[bool]int{}
	most := map[bool]int{}
	full := make(chan struct{}) // closed once 2n waiting runs are in at once
	var once sync.Once
	run := func(i int) {
		w := i < 10
		mu.Lock()
		ran[i]++
		in[w]++
		most[w] = max(most[w], in[w])
		if w && in[w] == 2*n {
			once.Do(func() { close(full) })
		}
		mu.Unlock()
		if w {
			select {
			case <-full:
			case <-time.After(30 * time.Second): // only a broken pool waits this long
			}
		}
		mu.Lock()
		in[w]--
		mu.Unlock()
	}
	schedule(context.Background(), n, waiting, busy, run)
	for i := 0; i < 17; i++ {
		if ran[i] != 1 {
			t.Errorf("run %d ran %d times, want 1", i, ran[i])
		}
	}
	if most[true] != 2*n {
		t.Errorf("at most %d waiting runs at once, want %d", most[true], 2*n)
	}
	if most[false] > n {
		t.Errorf("%d busy runs at once, want at most %d", most[false], n)
	}
}

// TestScheduleCancelled: once ctx is done, no run starts.
func TestScheduleCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var mu sync.Mutex
	started := 0
	schedule(ctx, 2, []int{0, 1, 2}, []int{3, 4}, func(int) { mu.Lock(); started++; mu.Unlock() })
	if started != 0 {
		t.Errorf("%d runs started after cancel, want 0", started)
	}
}
