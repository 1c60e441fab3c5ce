package report

import (
	"fmt"
	"sort"
	"time"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/lab"
)

// A sequence is the handshake of one run as a sequence diagram: what the
// client sent the server and the server answered, and the client's model
// requests, in time order.
type sequence struct {
	Events []event
	More   int // events left out
	Height int
	Why    string
	Alt    string
}

// An event is one arrow: From and To are lanes (0 client, 1 server,
// 2 model API).
type event struct {
	At       string // "+0.123 s" from the first event
	Label    string
	From, To int
	Y        int
	X1, X2   int
	Error    bool
	API      bool
}

// Lanes of the diagram, at these x positions.
var laneX = [3]int{110, 340, 570}

const maxEvents = 14

// handshakeSequence reads the lab's message log and the recorded requests
// of r.
func handshakeSequence(r *analyze.Result) sequence {
	msgs, _, err := analyze.ReadLabLog(evidence.RunDir(r.Dir).LabLog())
	if err != nil {
		return sequence{Why: err.Error()}
	}
	type ev struct {
		t time.Time
		e event
	}
	var evs []ev
	for _, m := range msgs {
		switch {
		case m.Dir == lab.Recv && m.Method != "":
			evs = append(evs, ev{m.Time, event{Label: m.Method, From: 0, To: 1}})
		case m.Dir == lab.Recv:
			evs = append(evs, ev{m.Time, event{Label: "reply to the server", From: 0, To: 1}})
		case m.Dir == lab.Send && m.Error != nil:
			evs = append(evs, ev{m.Time, event{Label: fmt.Sprintf("%s: error %d", m.Method, *m.Error), From: 1, To: 0, Error: true}})
		case m.Dir == lab.Send && m.Kind == lab.KindResponse:
			label := m.Method + " result"
			if m.Method == "initialize" || m.Method == "server/discover" {
				label += withText(r, m.Method)
			}
			evs = append(evs, ev{m.Time, event{Label: label, From: 1, To: 0}})
		case m.Dir == lab.Send:
			evs = append(evs, ev{m.Time, event{Label: m.Method, From: 1, To: 0}})
		}
	}
	for i := range r.Requests {
		q := &r.Requests[i]
		label := fmt.Sprintf("request %d: without the text", q.Seq)
		if b := q.Best(); b != nil && b.Full {
			label = fmt.Sprintf("request %d: with the text", q.Seq)
		} else if b != nil {
			label = fmt.Sprintf("request %d: %s chars of the text", q.Seq, table.Num(b.Kept))
		}
		if r.Sent == 0 {
			label = fmt.Sprintf("request %d", q.Seq)
		}
		if q.Side {
			label += " (side)"
		}
		evs = append(evs, ev{q.Time, event{Label: label, From: 0, To: 2, API: true}})
	}
	if len(evs) == 0 {
		return sequence{Why: "nothing in " + evidence.LabLogFile}
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].t.Before(evs[j].t) })
	// Keep every model request; fill the rest with the first messages.
	keep := make([]bool, len(evs))
	n := 0
	for i, e := range evs {
		if e.e.API {
			keep[i] = true
			n++
		}
	}
	for i := range evs {
		if n >= maxEvents {
			break
		}
		if !keep[i] {
			keep[i] = true
			n++
		}
	}
	var s sequence
	t0 := evs[0].t
	for i, e := range evs {
		if !keep[i] {
			s.More++
			continue
		}
		e.e.At = fmt.Sprintf("+%.3f s", e.t.Sub(t0).Seconds())
		e.e.Y = 34 + 24*len(s.Events)
		e.e.X1, e.e.X2 = laneX[e.e.From], laneX[e.e.To]
		s.Events = append(s.Events, e.e)
	}
	s.Height = 44 + 24*len(s.Events)
	s.Alt = fmt.Sprintf("%d messages between client, server and model API", len(s.Events))
	return s
}

// withText says whether a reply carried the row's text.
func withText(r *analyze.Result, method string) string {
	if r.Sent == 0 {
		return ""
	}
	if method == lab.Modern.Method() && !r.Eras.Speaks(lab.Modern) {
		return ""
	}
	return ", with the text"
}
