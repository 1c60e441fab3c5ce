package atlas

import (
	"strings"
	"testing"
)

// TestBudgetChangePoints: a budget on the timeline is a number; a change
// point is a change of it beyond its resolution (spans apart by more than
// 10% of the lower), never two brackets that overlap or nearly touch, and
// a budget whose runs disagreed is a race.
func TestBudgetChangePoints(t *testing.T) {
	wait := func(lo, hi float64, timing string) Props {
		return Props{{Name: "wait budget", Value: "v", Span: &Span{Lo: lo, Hi: hi}, Timing: timing}}
	}
	vs := []string{"1", "2", "3", "4", "5", "6", "7"}
	points := []Point{
		{Version: "1", Props: wait(1.9, 2.1, "")},
		{Version: "2", Props: wait(1.95, 2.15, "")}, // overlaps: the same budget
		{Version: "3", Props: wait(2.2, 2.4, "")},   // 0.1 above 2.1: within its resolution
		{Version: "4", Props: wait(7.8, 8.6, "")},   // a change: 5.4 s apart
		{Version: "5", Props: wait(2.0, 2.2, "3 of its 9 runs disagreed near the edge")},
		{Version: "6", Props: wait(8.0, 0, "")}, // at least 8 s: unbounded, the same as 7.8-8.6
		{Version: "7", Props: wait(0, 0.1, "")}, // under 100 ms: a change
	}
	for i := range points {
		points[i].Attempt = 1
	}
	tl := NewTimeline("c", "all", vs, points)
	var got []string
	for _, c := range tl.Changes {
		got = append(got, c.Before+"→"+c.First)
	}
	if strings.Join(got, " ") != "3→4 6→7" {
		t.Errorf("changes %v, want 3→4 6→7", got)
	}
	if len(tl.Races) != 2 {
		t.Errorf("races %+v, want 4→5 and 5→6 (the disagreeing version's both sides)", tl.Races)
	}
}

// TestCountChangePoints: a count (the name budget) is the same where its
// bracket is, whatever its text says beside it (Claude Code 2.1.304 no
// longer shows the prefix of a deferred tool's name), and a change
// wherever its bracket differs, however little (118 to 125 is within a
// wait budget's 10%).
func TestCountChangePoints(t *testing.T) {
	name := func(lo, hi float64, text string) Props {
		return Props{{Name: "name budget", Value: text, Span: &Span{Lo: lo, Hi: hi, Exact: true}}}
	}
	vs := []string{"1", "2", "3", "4", "5"}
	points := []Point{
		{Version: "1", Attempt: 1, Props: name(256, 0, "accepts a tool name of 256 characters, the longest tried")},
		{Version: "2", Attempt: 1, Props: name(118, 119, "accepts a tool name of up to 118 characters (128 with the client's prefix)")},
		{Version: "3", Attempt: 1, Props: name(118, 119, "accepts a tool name of up to 118 characters")},
		{Version: "4", Attempt: 1, Props: name(125, 126, "accepts a tool name of up to 125 characters")},
		{Version: "5", Attempt: 1, Props: name(125, 126, "accepts a tool name of up to 125 characters")},
	}
	tl := NewTimeline("c", "all", vs, points)
	var got []string
	for _, c := range tl.Changes {
		got = append(got, c.Before+"→"+c.First)
	}
	if strings.Join(got, " ") != "1→2 3→4" {
		t.Errorf("changes %v, want 1→2 3→4", got)
	}
}
