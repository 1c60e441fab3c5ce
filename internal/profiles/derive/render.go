package derive

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/lab"
)

// deriveRender finds how the client wraps a server's text: in the first
// request of the plain run with the shortest text kept whole, the text's
// segment is compared with the same segment of a run without instructions;
// what was added around the text is the head (before) and the tail
// (after). The part of the head that the client's own transcript records
// with the text is the per-server heading.
func deriveRender(runs []run) (profiles.Render, []string, error) {
	none := profiles.Render{Server: "{text}", Placement: "not measured"}
	var ref *run
	for i, r := range runs {
		if b := r.First.Best(); r.plain() && b != nil && b.Full && (ref == nil || r.Sent < ref.Sent || r.Sent == ref.Sent && ref.Row.Era == lab.EraDual && r.Row.Era != lab.EraDual) {
			ref = &runs[i]
		}
	}
	if ref == nil {
		return none, []string{"placement and rendering (no text arrived whole in a first request)"}, nil
	}
	b := ref.First.Best()
	seg, err := matrix.SegmentText(ref.Dir, ref.First.Seq, b.Path)
	if err != nil {
		return none, nil, err
	}
	text := ref.text(b.Era)
	i := strings.Index(seg, text)
	if i < 0 {
		return none, nil, fmt.Errorf("%s: the text is not in %s", ref.Dir, b.Path)
	}
	before, after := seg[:i], seg[i+len(text):]
	bl := baselineRun(runs)
	var bseg string
	if bl != nil {
		bseg, err = matrix.SegmentText(bl.Dir, bl.First.Seq, b.Path)
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
	block := before[start:]
	r := profiles.Render{Head: block, Server: "{text}", Tail: after[:end], Separator: "\n\n"}
	if prefix := transcriptPrefix(ref.Result, text); prefix != "" && strings.HasSuffix(block, prefix) {
		r.Head = block[:len(block)-len(prefix)]
		r.Server = strings.ReplaceAll(prefix, matrix.ServerName, "{name}") + "{text}"
	} else if k := strings.LastIndex(block, matrix.ServerName); k >= 0 {
		ls := strings.LastIndex(block[:k], "\n") + 1
		r.Head = block[:ls]
		r.Server = strings.ReplaceAll(block[ls:], matrix.ServerName, "{name}") + "{text}"
	}
	r.Placement = placementWords(b.Kind, b.Path, start > 0 || end < len(after))
	same := 0
	for _, o := range runs {
		if ob := o.First.Best(); o.plain() && ob != nil && ob.Kind == b.Kind && ob.Path == b.Path {
			same++
		}
	}
	rendered := r.Apply([]profiles.Block{{Server: matrix.ServerName, Text: text}})
	r.Note = fmt.Sprintf("From row %s (%s characters): the text arrived in %s, in the first model request; %d plain runs put it there. Rendered for a server named %s the block is %s characters (%s before the text, %s after).",
		ref.Row.Name, table.Num(ref.Sent), b.Path, same, matrix.ServerName, table.Num(utf8.RuneCountInString(rendered)),
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

// baselineRun is a finished run without instructions and with nothing
// else set.
func baselineRun(runs []run) *run {
	for i, r := range runs {
		if r.plain() && r.Sent == 0 && strings.HasPrefix(r.Row.Instr, "none") {
			return &runs[i]
		}
	}
	return nil
}

// transcriptPrefix is what the client's transcript records before the
// server's text in its instructions block (a per-server heading).
func transcriptPrefix(r matrix.Result, text string) string {
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
		if (r.Row.InitDelay == "" && r.Row.DiscoverDelay == "") || r.First.Best() != nil {
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
