package atlas

import (
	"context"
	"math"
)

// A Prober probes one version of a client. attempt is 1 for the
// bisection's probe and 2 when a change point is being confirmed. A
// version it cannot drive comes back with CouldNotRun set.
type Prober func(ctx context.Context, version string, attempt int) Point

// BisectOptions tune a bisection.
type BisectOptions struct {
	// Grid is how many intervals the version list is first cut into;
	// 0 means ceil(log2(n)). A change that reverts within one grid
	// interval, leaving both ends equal, is not seen: a finer grid sees
	// more and costs more.
	Grid int
	// Known holds points probed earlier (a resumed sweep): they are used
	// instead of probing again.
	Known []Point
	// Confirm re-probes both neighbours of every change point (attempt 2).
	Confirm bool
	// OnPoint is called after every new probe, in the order probed, so a
	// caller can save it before the next one starts.
	OnPoint func(Point)
}

// Bisect probes versions (oldest first) at grid points, then bisects every
// interval whose ends differ until each change lies between two
// neighbouring versions. Versions that could not run are stepped over: the
// nearest runnable version inside the interval is probed instead, and a
// change that cannot be narrowed further is reported between the runnable
// versions around it. When a grid point at either end could not run, the
// oldest (newest) version that runs is found by bisection first, so a
// version that could not run never hides the versions between it and the
// first runnable grid point. It returns every point probed (Known ones included),
// in version order with confirmations after first attempts.
func Bisect(ctx context.Context, versions []string, probe Prober, o BisectOptions) []Point {
	n := len(versions)
	first := map[string]Point{}
	confirm := map[string]Point{}
	for _, p := range o.Known {
		switch p.Attempt {
		case 2:
			confirm[p.Version] = p
		default:
			first[p.Version] = p
		}
	}
	at := func(i int) Point {
		v := versions[i]
		if p, ok := first[v]; ok {
			return p
		}
		p := probe(ctx, v, 1)
		p.Version, p.Attempt = v, 1
		if ctx.Err() != nil {
			// Cut off: not a result. It is left out of the points so a
			// resumed sweep probes it again.
			return Point{Version: v, Attempt: 1, CouldNotRun: "stopped"}
		}
		first[v] = p
		if o.OnPoint != nil {
			o.OnPoint(p)
		}
		return p
	}
	if n == 0 {
		return nil
	}
	// Runnable anchors at the grid points.
	var anchors []int
	grid := gridIndexes(n, o.Grid)
	for _, i := range grid {
		if ctx.Err() != nil {
			break
		}
		if at(i).Ran() {
			anchors = append(anchors, i)
		}
	}
	// A grid point that could not run is no evidence, so it must not end
	// the timeline: at each end, between the runnable anchor and the
	// nearest grid point outside it that could not run, bisect for the
	// runnable version nearest the one that could not (taking the versions
	// that cannot run at an end to be one stretch), and make it the anchor.
	if len(anchors) > 0 && ctx.Err() == nil {
		lo, hi := anchors[0], anchors[len(anchors)-1]
		for k := len(grid) - 1; k >= 0; k-- {
			if grid[k] < lo {
				if e := runnableEdge(ctx, grid[k], lo, at); e != lo {
					anchors = append([]int{e}, anchors...)
				}
				break
			}
		}
		for _, g := range grid {
			if g > hi {
				if e := runnableEdge(ctx, g, hi, at); e != hi {
					anchors = append(anchors, e)
				}
				break
			}
		}
	}
	var split func(a, b int)
	split = func(a, b int) {
		if ctx.Err() != nil || b-a < 2 || at(a).Props.Same(at(b).Props) {
			return
		}
		m := nearestRunnable(a, b, at)
		if m < 0 {
			return // nothing between a and b runs: the change stays between them
		}
		split(a, m)
		split(m, b)
	}
	for k := 1; k < len(anchors); k++ {
		split(anchors[k-1], anchors[k])
	}
	if o.Confirm {
		for _, c := range changes(versions, sortedPoints(first)) {
			for _, v := range []string{c.Before, c.First} {
				if _, ok := confirm[v]; ok || ctx.Err() != nil {
					continue
				}
				p := probe(ctx, v, 2)
				p.Version, p.Attempt = v, 2
				if ctx.Err() != nil {
					break
				}
				confirm[v] = p
				if o.OnPoint != nil {
					o.OnPoint(p)
				}
			}
		}
	}
	out := sortedPoints(first)
	out = append(out, sortedPoints(confirm)...)
	return orderPoints(versions, out)
}

// gridIndexes returns grid+1 evenly spaced indexes from 0 to n-1.
func gridIndexes(n, grid int) []int {
	if n == 1 {
		return []int{0}
	}
	if grid <= 0 {
		grid = int(math.Ceil(math.Log2(float64(n))))
	}
	if grid < 1 {
		grid = 1
	}
	if grid > n-1 {
		grid = n - 1
	}
	var out []int
	last := -1
	for k := 0; k <= grid; k++ {
		i := int(math.Round(float64(k) * float64(n-1) / float64(grid)))
		if i != last {
			out = append(out, i)
			last = i
		}
	}
	return out
}

// runnableEdge bisects between c, a version that could not run, and r, one
// that ran, for the runnable version nearest c, and returns its index (r
// itself when nothing between runs). It assumes the versions that cannot
// run there are one stretch, as an old release without a flag the adapter
// needs or a new one not yet installable are.
func runnableEdge(ctx context.Context, c, r int, at func(int) Point) int {
	for c-r > 1 || r-c > 1 {
		if ctx.Err() != nil {
			break
		}
		m := (c + r) / 2
		if at(m).Ran() {
			r = m
		} else {
			c = m
		}
	}
	return r
}

// nearestRunnable probes outward from the middle of (a, b) and returns the
// first index that ran, or -1 when none between a and b did.
func nearestRunnable(a, b int, at func(int) Point) int {
	m := (a + b) / 2
	for d := 0; m-d > a || m+d < b; d++ {
		if i := m + d; i < b && at(i).Ran() {
			return i
		}
		if i := m - d; d > 0 && i > a && at(i).Ran() {
			return i
		}
	}
	return -1
}

func sortedPoints(m map[string]Point) []Point {
	out := make([]Point, 0, len(m))
	for _, p := range m {
		out = append(out, p)
	}
	return out
}
