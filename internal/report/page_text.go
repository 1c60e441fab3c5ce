package report

import (
	"sort"
	"strings"

	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// A cutText is the server's text of one reply with every client's cut
// drawn on it: pieces kept by every client, by some, by none; markers and
// codewords set apart; the first lost sentence of each cut named.
type cutText struct {
	Reply  lab.Reply
	Chars  int
	Pieces []piece
	Cuts   []cutNote
}

// A piece is a run of the text with one state. Cut is set for the marker
// drawn where a client's text ends.
type piece struct {
	Text  string
	Class string // kept, some, lost; with mark or code for markers and codewords
	Cut   string
	// Elided counts the characters left out here (far from every cut).
	Elided int
	keptBy int
}

// window is the context shown around the start, the end and each cut of
// a long text; the rest is elided with its length said.
const window = 320

type span struct{ from, to int }

// visible is where a text of n characters is shown: its start, its end,
// and around each cut, merged.
func visible(n int, cuts []cut) []span {
	if n <= 4*window {
		return []span{{0, n}}
	}
	v := []span{{0, window}}
	for _, c := range cuts {
		if c.at < n {
			v = append(v, span{max(c.at-window, 0), min(c.at+window, n)})
		}
	}
	v = append(v, span{n - window/2, n})
	sort.Slice(v, func(i, j int) bool { return v[i].from < v[j].from })
	out := v[:1]
	for _, s := range v[1:] {
		if last := &out[len(out)-1]; s.from <= last.to+window/4 {
			last.to = max(last.to, s.to)
		} else {
			out = append(out, s)
		}
	}
	return out
}

func shown(vis []span, at int) bool {
	for _, v := range vis {
		if at >= v.from && at < v.to {
			return true
		}
	}
	return false
}

type cutNote struct {
	Client string
	At     int
	Lost   int
	// Sentence is the first sentence the client did not keep whole.
	Sentence string
}

type cut struct {
	client string
	at     int
}

// drawCuts splits t at every cut, marker and codeword.
func drawCuts(t lab.Text, cuts []cut) cutText {
	runes := []rune(t.Text)
	n := len(runes)
	ct := cutText{Reply: t.Reply, Chars: n}
	sort.SliceStable(cuts, func(i, j int) bool { return cuts[i].at < cuts[j].at })
	// special spans: markers "[at N]" and the two codewords.
	var specials []span
	for _, m := range t.Markers {
		end := m
		for end < n && runes[end] != ']' {
			end++
		}
		specials = append(specials, span{m, min(end+1, n)})
	}
	for _, w := range []string{t.Begin, t.End} {
		if w == "" {
			continue
		}
		if i := strings.LastIndex(t.Text, w); i >= 0 {
			from := len([]rune(t.Text[:i]))
			if w == t.Begin {
				from = len([]rune(t.Text[:strings.Index(t.Text, w)]))
			}
			specials = append(specials, span{from, from + len([]rune(w))})
		}
	}
	sort.Slice(specials, func(i, j int) bool { return specials[i].from < specials[j].from })
	vis := visible(n, cuts)
	bounds := map[int]bool{0: true, n: true}
	for _, c := range cuts {
		bounds[min(c.at, n)] = true
	}
	for _, v := range vis {
		bounds[v.from], bounds[v.to] = true, true
	}
	for _, s := range specials {
		bounds[s.from], bounds[s.to] = true, true
	}
	var at []int
	for b := range bounds {
		at = append(at, b)
	}
	sort.Ints(at)
	ci := 0
	for i := 0; i+1 < len(at); i++ {
		from, to := at[i], at[i+1]
		for ci < len(cuts) && cuts[ci].at <= from {
			if cuts[ci].at < n {
				ct.Pieces = append(ct.Pieces, piece{Cut: cuts[ci].client + " cuts here, after " + table.Num(cuts[ci].at) + " characters"})
			}
			ci++
		}
		keptBy := 0
		for _, c := range cuts {
			if c.at >= to {
				keptBy++
			}
		}
		if !shown(vis, from) {
			// Elided: one piece saying how much, merged with the one before.
			if k := len(ct.Pieces) - 1; k >= 0 && ct.Pieces[k].Elided > 0 && ct.Pieces[k].keptBy == keptBy {
				ct.Pieces[k].Elided += to - from
			} else {
				ct.Pieces = append(ct.Pieces, piece{Elided: to - from, keptBy: keptBy})
			}
			continue
		}
		class := "kept"
		switch {
		case len(cuts) > 0 && keptBy == 0:
			class = "lost"
		case keptBy < len(cuts):
			class = "some"
		}
		for _, s := range specials {
			if from >= s.from && to <= s.to {
				if s.to-s.from > 0 && runes[s.from] == '[' {
					class += " mark"
				} else {
					class += " code"
				}
				break
			}
		}
		ct.Pieces = append(ct.Pieces, piece{Text: string(runes[from:to]), Class: class})
	}
	for _, c := range cuts {
		if c.at >= n {
			continue
		}
		ct.Cuts = append(ct.Cuts, cutNote{Client: c.client, At: c.at, Lost: n - c.at, Sentence: sentenceAt(runes, c.at)})
	}
	return ct
}

// sentenceAt is the sentence of runes that holds position at: from the
// end of the previous sentence (". ", "。", or a marker's "] ") to the end
// of this one, at most 160 characters.
func sentenceAt(runes []rune, at int) string {
	start := 0
	for i := at - 1; i > 0; i-- {
		if runes[i] == '。' || (runes[i] == ' ' && (runes[i-1] == '.' || runes[i-1] == ']')) {
			start = i + 1
			break
		}
	}
	end := len(runes)
	for i := at; i < len(runes); i++ {
		if runes[i] == '。' || runes[i] == '.' {
			end = i + 1
			break
		}
	}
	return unit.CodePoint.Clip(strings.TrimSpace(string(runes[start:end])), 160)
}
