package derive

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// deriveRender finds how the client wraps a server's text: in the first
// request of the plain run with the shortest text kept whole, the text's
// segment is compared with the same segment of a run without instructions;
// what was added around the text is the head (before) and the tail
// (after). The part of the head that the client's own transcript records
// with the text is the per-server heading.
func deriveRender(runs []run, ev Evidence) (profiles.Render, []string, error) {
	none := profiles.Render{Server: "{text}", Placement: "not measured"}
	if n, sent := unused(runs); n > 0 {
		return profiles.Render{Server: "{text}", Placement: "nowhere: no model request held the text", Unused: true,
			Note: fmt.Sprintf("In %d runs whose server sent instructions (up to %s characters) and whose client made model requests, no request held any of the text.", n, table.Num(sent))}, nil, nil
	}
	ref := refRun(runs, true)
	cutRef := ref == nil
	if cutRef {
		ref = refRun(runs, false) // every text was cut: the shortest cut one
	}
	if ref == nil {
		return none, []string{"placement and rendering (no text arrived in a first request)"}, nil
	}
	b := ref.First.Best()
	seg, err := ev.Segment(ref.Dir, ref.First.Seq, b.Path)
	if err != nil {
		return none, nil, err
	}
	text := ref.text(b.Reply)
	if cutRef {
		text = string([]rune(text)[:b.Kept])
	}
	i := strings.Index(seg, text)
	if i < 0 {
		return none, nil, fmt.Errorf("%s: the text is not in %s", ref.Dir, b.Path)
	}
	before, after := seg[:i], seg[i+len(text):]
	bl := baselineRun(runs)
	var bseg string
	if bl != nil {
		bseg, err = ev.Segment(bl.Dir, bl.First.Seq, b.Path)
	}
	if bl == nil || err != nil {
		// Without a segment to compare with, where the block starts in
		// the segment is unknown: keep only the client's own heading.
		r := profiles.Render{Server: "{text}", Placement: placementWords(b.Kind, b.Path, false)}
		if prefix := transcriptPrefix(ref.Result, text); prefix != "" && strings.HasSuffix(before, prefix) {
			r.Server = strings.ReplaceAll(prefix, matrix.ServerName, "{name}") + "{text}"
		}
		r.Note = fmt.Sprintf("From row %s: the text arrived in %s of the first model request. No run without instructions had that segment to compare with, so what the client adds before and after the text beyond its per-server heading is not known.", ref.Row.Name, b.Path)
		return r, []string{"the head and tail around the instructions (no run without instructions to compare with)"}, nil
	}
	start := commonPrefixLen(before, bseg)
	if start < len(before) {
		start = strings.LastIndex(before[:start], "\n") + 1 // a block starts a line
	}
	end := len(after) - commonSuffixLen(after, bseg[start:])
	if cont := unit.CodePoint.Prefix(bseg[start:], 40); cont != "" && !cutRef {
		// The segment goes on as without instructions from where the
		// block was put: the tail ends there (what follows may differ
		// from run to run, as a session id does).
		if k := strings.Index(after, cont); k >= 0 && k < end {
			end = k
		}
	}
	block := before[start:]
	r := profiles.Render{Head: block, Server: "{text}", Tail: after[:end], Separator: "\n\n"}
	if cutRef {
		r.Tail = ""
	}
	if prefix := transcriptPrefix(ref.Result, text); prefix != "" && strings.HasSuffix(block, prefix) {
		r.Head = block[:len(block)-len(prefix)]
		r.Server = strings.ReplaceAll(prefix, matrix.ServerName, "{name}") + "{text}"
	} else if k := strings.LastIndex(block, matrix.ServerName); k >= 0 {
		ls := strings.LastIndex(block[:k], "\n") + 1
		r.Head = block[:ls]
		r.Server = strings.ReplaceAll(block[ls:], matrix.ServerName, "{name}") + "{text}"
	}
	if k := strings.Index(r.Tail, matrix.ServerName); k >= 0 && k < 100 {
		// A closing line that names the server is the server's, not
		// the block's.
		e := len(r.Tail)
		if n := strings.Index(r.Tail[k:], "\n"); n >= 0 {
			e = k + n
		}
		r.Server += strings.ReplaceAll(r.Tail[:e], matrix.ServerName, "{name}")
		r.Tail = r.Tail[e:]
	}
	r.Placement = placementWords(b.Kind, b.Path, start > 0 || end < len(after))
	same := 0
	for _, o := range runs {
		if ob := o.First.Best(); o.plain() && ob != nil && ob.Kind == b.Kind && ob.Path == b.Path {
			same++
		}
	}
	rendered := r.Apply([]profiles.Block{{Server: matrix.ServerName, Text: text}})
	kind := "arrived"
	if cutRef {
		kind = "arrived cut (no text arrived whole: the tail after the text is not told apart from the marker, and is left empty)"
	}
	r.Note = fmt.Sprintf("From row %s (%s characters): the text %s in %s, in the first model request; %d plain runs put it there. Rendered for a server named %s the block is %s characters (%s before the text, %s after).",
		ref.Row.Name, table.Num(ref.Sent), kind, b.Path, same, matrix.ServerName, table.Num(utf8.RuneCountInString(rendered)),
		table.Num(utf8.RuneCountInString(r.Head)+utf8.RuneCountInString(r.Server)-len("{text}")-strings.Count(r.Server, "{name}")*(len("{name}")-len(matrix.ServerName))),
		table.Num(utf8.RuneCountInString(r.Tail)))
	r.Note += fmt.Sprintf(" Head and tail are what the segment holds beyond the same segment of row %s, which has no instructions.", bl.Row.Name)
	if r.Tail != "" && strings.TrimSpace(r.Tail) == "" {
		r.Note += " The tail is only the blank line that parts the block from the text after it."
	}
	if late := lateNote(runs); late != "" {
		r.Note += " " + late
	}
	r.Note += " The separator between two servers is not measured."
	return r, nil, nil
}

// refRun is the plain run with the shortest text that arrived whole (or,
// with whole false, cut) in its first request, preferring a legacy server
// to a dual-era one.
func refRun(runs []run, whole bool) *run {
	var ref *run
	for i, r := range runs {
		if b := r.First.Best(); r.plain() && b != nil && b.Full == whole && (ref == nil || r.Sent < ref.Sent || r.Sent == ref.Sent && ref.Row.Eras == lab.ModeBoth && r.Row.Eras != lab.ModeBoth) {
			ref = &runs[i]
		}
	}
	return ref
}

// unused counts the plain runs whose server sent a text the lab's log
// shows it answered with, that made model requests, and in none of whose
// requests any of the text was found; it is 0 unless every plain run that
// sent a text is one of them. sent is the longest text they sent.
func unused(runs []run) (n, sent int) {
	for _, r := range runs {
		if !r.plain() || r.Sent == 0 {
			continue
		}
		for _, q := range r.Requests {
			if q.Best() != nil {
				return 0, 0
			}
		}
		if !r.Handshake.InitializeSent && r.Handshake.DiscoverAnswer != "result" {
			return 0, 0 // the text may never have left the server
		}
		n, sent = n+1, max(sent, r.Sent)
	}
	return n, sent
}

// baselineRun is a finished run without instructions and with nothing
// else set.
func baselineRun(runs []run) *run {
	for i, r := range runs {
		if r.plain() && r.Sent == 0 && strings.HasPrefix(r.Row.Instr, "none") && r.Row.ToolDesc == "" && r.Row.ToolDescFile == "" {
			return &runs[i]
		}
	}
	return nil
}

// transcriptPrefix is what the client's transcript records before the
// server's text in its instructions block (a per-server heading).
func transcriptPrefix(r analyze.Result, text string) string {
	for _, in := range r.Observation.Instructions {
		if in.Server != "" && in.Server != matrix.ServerName {
			continue
		}
		head := text[:min(len(text), 60)]
		if k := strings.Index(in.Text, head); k > 0 {
			return in.Text[:k]
		}
	}
	return ""
}

// lateNote says where the text went in runs whose server answered late,
// when that is not the first request.
func lateNote(runs []run) string {
	for _, r := range runs {
		if (r.Row.InitDelay == 0 && r.Row.DiscoverDelay == 0) || r.First.Best() != nil {
			continue
		}
		for _, q := range r.Requests {
			if b := q.Best(); b != nil && !q.Side {
				return fmt.Sprintf("When the server connected after the first request (row %s), the text arrived in request %d as %s, after %q.",
					r.Row.Name, q.Seq, placementWords(b.Kind, b.Path, false), b.Wrapper)
			}
		}
	}
	return ""
}

func placementWords(k fakeapi.Kind, path string, inside bool) string {
	var w string
	switch k {
	case fakeapi.KindSystem:
		w = "the top-level system prompt"
	case fakeapi.KindSystemMessage:
		w = `a role "system" message`
	case fakeapi.KindDeveloperMessage:
		w = `a role "developer" message`
	case fakeapi.KindUserTurn:
		w = "a user turn"
	case fakeapi.KindToolDefinition:
		w = "a tool definition"
	default:
		w = string(k)
	}
	w += " (" + path + ")"
	if inside {
		w += ", a section among the client's own text there"
	}
	return w
}

func commonPrefixLen(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(a) && !utf8.RuneStart(a[i]) {
		i--
	}
	return i
}

func commonSuffixLen(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	for n > 0 && n < len(a) && !utf8.RuneStart(a[len(a)-n]) {
		n--
	}
	return n
}
