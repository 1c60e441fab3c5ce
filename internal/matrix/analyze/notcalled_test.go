package analyze

import (
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/surface"
)

// TestNotCalledSaysTheRace: a scripted call never offered, of a server
// ready only after the client's first request, says the run raced (Droid
// 0.225.2 with server-everything: ready 75 ms after); one the server does
// not list does not; a server ready in time adds nothing.
func TestNotCalledSaysTheRace(t *testing.T) {
	lead := func(ms float64) *float64 { return &ms }
	missed := func() *SurfaceFacts {
		return &SurfaceFacts{NotCalled: []surface.Missed{
			{Tool: "get-structured-content", Why: surface.MissedNotOffered},
			{Tool: "typo", Why: surface.MissedNotListed}}}
	}
	res := Result{Surface: missed(), Timing: Timing{LeadMS: lead(-75.4)}}
	notCalled(&res)
	want := []string{
		"did not call get-structured-content: " + surface.MissedNotOffered + "; the server became ready 75 ms after the client's first request (timing-sensitive)",
		"did not call typo: " + surface.MissedNotListed,
	}
	if strings.Join(res.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings\n%s\nwant\n%s", strings.Join(res.Warnings, "\n"), strings.Join(want, "\n"))
	}
	if got := res.Surface.NotCalled[0].Why; !strings.Contains(got, "75 ms after") {
		t.Errorf("the result's not_called says %q, not the race", got)
	}
	inTime := Result{Surface: missed(), Timing: Timing{LeadMS: lead(300)}}
	notCalled(&inTime)
	if strings.Contains(strings.Join(inTime.Warnings, "\n"), "after the client's first request") {
		t.Errorf("a server ready in time is said to have raced: %v", inTime.Warnings)
	}
}
