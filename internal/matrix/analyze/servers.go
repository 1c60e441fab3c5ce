package analyze

import (
	"errors"
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/lab"
)

// A ServerResult is one lab server of a row of several: what it sent and
// where its text was in the first main request.
type ServerResult struct {
	Name string `json:"name"`
	// Sent is the characters of its initialize-era text; 0 with none.
	Sent int `json:"sent"`
	// Placements are where its text was in the first main request.
	Placements []Placement `json:"placements"`
	// Kept is the most characters of its text kept in one placement.
	Kept int `json:"kept"`
	// Order is its place among the servers whose text arrived, by segment
	// and then offset in the request (1 first); 0 when it did not arrive.
	Order int `json:"order"`
}

// errNoText is the error of a server that sends no instructions.
var errNoText = errors.New("no instructions")

// labServerText returns the texts of lab server s of a row, by reply.
func labServerText(s matrix.LabServer) (map[lab.Reply]string, error) {
	in, err := lab.ParseInstructions(s.Instr)
	if err != nil {
		return nil, err
	}
	if !in.Present() {
		return nil, errNoText
	}
	in.Seed = s.Name
	texts := map[lab.Reply]string{}
	for _, reply := range lab.Replies() {
		t, err := in.For(reply)
		if err != nil {
			return nil, err
		}
		texts[reply] = t.Text
	}
	return texts, nil
}

// locateServers finds each lab server's text of the row in ctx, the first
// main request, and orders the servers that arrived as the request does.
// Bad rows become warnings.
func locateServers(row matrix.Row, ctx fakeapi.Context) ([]ServerResult, []string) {
	type at struct{ seg, off int }
	var out []ServerResult
	var warns []string
	first := map[int]at{}
	for _, s := range row.LabServers() {
		res := ServerResult{Name: s.Name, Placements: []Placement{}}
		texts, err := labServerText(s)
		if err != nil && !errors.Is(err, errNoText) {
			warns = append(warns, fmt.Sprintf("server %s: %v", s.Name, err))
		}
		res.Sent = utf8.RuneCountInString(texts[lab.ReplyInitialize])
		for i := range ctx {
			for _, reply := range lab.Replies() {
				for _, p := range locate(ctx[i:i+1], reply, texts[reply]) {
					if _, ok := first[len(out)]; !ok {
						first[len(out)] = at{i, p.Offset}
					}
					res.Placements = append(res.Placements, p)
					res.Kept = max(res.Kept, p.Kept)
				}
			}
		}
		out = append(out, res)
	}
	arrived := make([]int, 0, len(first))
	for i := range first {
		arrived = append(arrived, i)
	}
	sort.Slice(arrived, func(a, b int) bool {
		x, y := first[arrived[a]], first[arrived[b]]
		return x.seg < y.seg || x.seg == y.seg && x.off < y.off
	})
	for n, i := range arrived {
		out[i].Order = n + 1
	}
	return out, warns
}
