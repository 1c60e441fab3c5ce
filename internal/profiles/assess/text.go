package assess

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
	"github.com/instrlab/instrlab/lab"
)

// TextOptions say how much of the report WriteText prints.
type TextOptions struct {
	// Verbose adds, after each server's table of clients, what every
	// view of every client predicts, in full.
	Verbose bool
	// Show adds each era's instructions with every profile's cut drawn
	// in, and the views in full.
	Show bool
	// Width is the width lines are wrapped to; 0 is table.DefaultWidth.
	Width int
}

// WriteText writes the report for people: per server, what each era
// sent, a table with a line per client (and per way of running it that
// changes something for this server), then the findings, each once with
// the clients it holds for; the views in full with Verbose or Show. No
// line is wider than o.Width. Every text a server or a config controls
// is escaped (line by line where it is shown on one line), and the whole
// output once more, so no control character or invisible character
// reaches the terminal as it is.
func WriteText(w io.Writer, rep Report, o TextOptions) error {
	if o.Width <= 0 {
		o.Width = table.DefaultWidth
	}
	p := &printer{width: o.Width}
	for i, s := range rep.Servers {
		if i > 0 {
			p.b.WriteString("\n")
		}
		p.server(s, o)
	}
	for _, c := range rep.Combined {
		p.b.WriteString("\n")
		p.hang("", fmt.Sprintf("all servers together in %s: %s characters, ~%s tokens (%s)", c.Profile, table.Num(c.Chars), table.Num(c.Tokens), line(strings.Join(c.Servers, ", "))))
		if c.Assumed != "" {
			p.hang("  assumed: ", c.Assumed)
		}
	}
	if o.Verbose || o.Show {
		p.b.WriteString("\n")
		p.hang("tokens: ", rep.Tokenizer)
	}
	_, err := io.WriteString(w, untrusted.Escape(p.b.String()))
	return err
}

// A printer writes lines wrapped to its width.
type printer struct {
	b     strings.Builder
	width int
}

// hang writes text after prefix, wrapped, its lines indented under the
// text.
func (p *printer) hang(prefix, text string) { p.b.WriteString(table.Hang(prefix, text, p.width)) }

// verbatim writes a server's text as it sent it, its lines as they are,
// not wrapped to the width (-show prints the bytes the server sent, every
// control and invisible character escaped when the output is), ended by a
// line break.
func (p *printer) verbatim(text string) {
	p.b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		p.b.WriteString("\n")
	}
}

// line escapes a server's or config's text shown on one line.
func line(s string) string { return untrusted.EscapeLine(s) }

// eraIndent is where the text of a server's lines starts.
const eraIndent = "           "

func (p *printer) server(s Server, o TextOptions) {
	p.hang(line(s.Target.Name)+"  ", line(s.Target.String()))
	if s.Target.Source != "" {
		p.hang("  from ", line(s.Target.Source))
	}
	for _, sh := range s.Target.Shadowed {
		p.hang("  not used ", line(sh)+" (a server of the same name; the scope above wins)")
	}
	if !o.Verbose && !o.Show {
		p.summary(s)
		p.writeAnswer(s, false)
		p.documented(s)
		return
	}
	for _, e := range []probe.EraResult{s.Legacy, s.Modern} {
		p.era(e, s.Texts)
	}
	p.survival(s.Survival)
	if st := s.Startup; st.Legacy.N+st.Modern.N > 0 {
		from := "spawn"
		if s.Target.Transport == probe.TransportHTTP {
			from = "first request"
		}
		p.hang("  startup  ", from+" to first reply: "+startupLine(s))
	}
	if s.SameEras != nil {
		if *s.SameEras {
			p.hang("  eras     ", "both send the same instructions")
		} else {
			p.hang("  eras     ", "the instructions differ between initialize and server/discover")
			if d := s.EraDiff; d != nil {
				p.hang(eraIndent, fmt.Sprintf("from character %s: initialize %q, server/discover %q", table.Num(d.At), oneLine(d.Legacy), oneLine(d.Modern)))
			}
		}
	}
	p.writeAnswer(s, true)
	p.documented(s)
	p.clients(s)
	p.b.WriteString("\n")
	for _, v := range s.Views {
		p.view(v)
	}
	if o.Show {
		p.cutTexts(s)
	}
	p.findings(s.Findings)
}

// summary says in three lines at most what the server is, how each era
// answered, and how fast it starts.
func (p *printer) summary(s Server) {
	e := s.Legacy
	if !e.OK() {
		e = s.Modern
	}
	if e.OK() {
		var name string
		if e.ServerInfo != nil {
			name = line(strings.TrimSpace(e.ServerInfo.Name+" "+e.ServerInfo.Version)) + ": "
		}
		for _, t := range s.Texts {
			if t.Era != e.Era {
				continue
			}
			text := "no instructions"
			if t.Present {
				text = fmt.Sprintf("instructions of %s characters (~%s tokens)", table.Num(t.Chars), table.Num(t.Tokens))
			}
			if s.SameEras != nil && !*s.SameEras {
				text += "; the other era's differ"
			}
			p.hang("  ", name+text)
		}
	}
	eras := erasLine(s)
	if st := s.Startup; loaded(st) && st.Legacy.N+st.Modern.N > 0 {
		eras += fmt.Sprintf("; timed at load %.1f on %d CPUs", st.Load, st.CPUs)
	}
	p.hang("  ", eras)
}

// erasLine says how each era's first request went, in a line:
// "initialize ok in 5.0 ms; server/discover -32601: probing clients fall
// back"; when both answered, whether with the same instructions.
func erasLine(s Server) string {
	l := erasWords(s)
	e := s.Legacy
	if !e.OK() {
		e = s.Modern
	}
	switch {
	case e.OK() && e.ToolsError != "":
		l += "; tools/list failed"
	case e.OK():
		l += "; " + table.Plural(len(e.Tools), "tool")
	}
	if s.SameEras != nil && *s.SameEras {
		l += "; both send the same instructions"
	}
	return l
}

func erasWords(s Server) string {
	era := func(e probe.EraResult) string {
		if e.OK() && e.Era == probe.Legacy && s.Startup.Legacy.N > 0 {
			return e.Method + " ok in " + startupWords(s.Startup.Legacy)
		}
		if e.OK() {
			return e.Method + " ok"
		}
		return fmt.Sprintf("%s → %s", e.Method, e.Outcome) // the findings say the details
	}
	legacy := era(s.Legacy)
	switch sv := s.Survival; sv.Verdict {
	case probe.SurvivalModern:
		return legacy + "; " + era(s.Modern) + " (a modern server)"
	case probe.SurvivalMethodNotFound:
		return legacy + "; server/discover -32601"
	case probe.SurvivalOtherError:
		return legacy + "; server/discover another error: " + line(sv.Detail)
	case probe.SurvivalExit:
		return legacy + "; the server exits on server/discover"
	case probe.SurvivalExitAtStart:
		return legacy + "; the server exits at start"
	case probe.SurvivalSilent:
		return legacy + "; server/discover gets no answer"
	}
	return legacy + "; " + era(s.Modern)
}

// startupWords is a start-up in a few words: "5.0 ms", "426 ms (n=4,
// max 478 ms)": the median of n samples, and the slowest.
func startupWords(st probe.Stats) string {
	if st.N <= 1 {
		return short(st.Median.D())
	}
	return fmt.Sprintf("%s (n=%d, max %s)", short(st.Median.D()), st.N, short(st.Max.D()))
}

// short writes a duration to three figures or so: "5.0 ms", "426 ms",
// "1.53 s".
func short(d time.Duration) string {
	if d >= 100*time.Millisecond && d < time.Second {
		return strconv.Itoa(int(d.Round(time.Millisecond)/time.Millisecond)) + " ms"
	}
	return dur(d)
}

// findings writes each finding once, with the clients it holds for.
func (p *printer) findings(fs []Finding) {
	if len(fs) == 0 {
		return
	}
	p.b.WriteString("\nfindings\n")
	for _, f := range fs {
		head := fmt.Sprintf("  %-8s  %-17s ", f.Severity, f.Code)
		if f.Fails {
			head = fmt.Sprintf("  %-8s  %-17s ", "fail", f.Code)
		}
		p.hang(head, line(f.Said()))
		if w := f.Whom(); w != "" {
			p.hang(strings.Repeat(" ", len(head)), "for "+line(w))
		}
	}
}

func (p *printer) era(e probe.EraResult, texts []Text) {
	head := fmt.Sprintf("  %-7s  ", e.Era)
	if !e.OK() {
		p.hang(head, fmt.Sprintf("%s → %s: %s", e.Method, e.Outcome, line(e.Detail)))
		return
	}
	var parts []string
	if e.ServerInfo != nil {
		parts = append(parts, line(strings.TrimSpace(e.ServerInfo.Name+" "+e.ServerInfo.Version)))
	}
	if e.ProtocolVersion != "" {
		parts = append(parts, "protocol "+line(e.ProtocolVersion))
	}
	if len(e.SupportedVersions) > 0 {
		parts = append(parts, "versions "+line(strings.Join(e.SupportedVersions, " ")))
	}
	if e.ToolsError != "" {
		parts = append(parts, "tools/list failed")
	} else {
		parts = append(parts, fmt.Sprintf("%s (sha256 %s)", table.Plural(len(e.Tools), "tool"), e.ToolsPrint().SHA256))
	}
	p.hang(head, fmt.Sprintf("%s → ok in %s: %s", e.Method, dur(e.FirstReply.D()), strings.Join(parts, ", ")))
	for _, t := range texts {
		if t.Era != e.Era {
			continue
		}
		if !t.Present {
			p.hang(eraIndent, "instructions: none (no field)")
			continue
		}
		p.hang(eraIndent, fmt.Sprintf("instructions: %s characters, %s bytes, ~%s tokens (%s chars/token), %s, sha256 %s",
			table.Num(t.Chars), table.Num(t.Bytes), table.Num(t.Tokens), strconv.FormatFloat(t.CharsPerToken, 'f', 2, 64), sections(len(t.Sections)), t.SHA256))
	}
	for _, c := range e.Calls {
		p.hang(eraIndent, callLine(c))
	}
}

// callLine says what one call of -call returned, measured.
func callLine(c probe.CallResult) string {
	if c.Outcome == probe.NotListed {
		return fmt.Sprintf("not called %s: %s", line(c.Tool), line(c.Detail))
	}
	head := fmt.Sprintf("called %s: %s in %s", line(c.Tool), c.Outcome, dur(c.Elapsed.D()))
	if c.Outcome != probe.OutcomeOK && c.Outcome != probe.OutcomeInvalid {
		return head + ": " + line(c.Detail)
	}
	var parts []string
	for _, typ := range slices.Sorted(maps.Keys(c.Blocks)) {
		parts = append(parts, table.Plural(c.Blocks[typ], typ+" block"))
	}
	if len(c.Blocks) == 0 {
		parts = append(parts, "no content block")
	}
	size := func(what string, s probe.Size) string {
		return fmt.Sprintf("%s %s characters (%s UTF-16 units, %s bytes, ~%s tokens)", what, table.Num(s.Chars), table.Num(s.UTF16), table.Num(s.Bytes), table.Num(s.Tokens))
	}
	if c.Text != nil {
		parts = append(parts, size("text", *c.Text))
	}
	if c.Structured != nil {
		parts = append(parts, size("structuredContent", *c.Structured))
	}
	if c.IsError {
		parts = append(parts, "isError true")
	}
	if c.Outcome == probe.OutcomeInvalid {
		parts = append(parts, line(c.Detail))
	}
	return head + ": " + strings.Join(parts, "; ")
}

func (p *printer) survival(sv probe.Survival) {
	var msg string
	switch sv.Verdict {
	case probe.SurvivalModern:
		msg = "a DiscoverResult, so the server is modern"
	case probe.SurvivalMethodNotFound:
		msg = fmt.Sprintf("-32601 after %s, so a probing client falls back at once (good)", dur(sv.Wait.D()))
	case probe.SurvivalOtherError:
		msg = "another error: " + line(sv.Detail)
	case probe.SurvivalExit:
		msg = "the server exits: " + line(sv.Detail)
	case probe.SurvivalExitAtStart:
		msg = "the server exits at start, whatever it is sent: " + line(sv.Detail)
	case probe.SurvivalSilent:
		msg = fmt.Sprintf("silence for all of check's -timeout, %s (not measured beyond it): a probing client waits its whole probe timeout", dur(sv.Wait.D()))
	default:
		return
	}
	p.hang("  probe    ", "server/discover: "+msg)
	if f := sv.Fallback; f != nil {
		msg := "then initialize on the same process: " + string(f.Outcome)
		if f.Detail != "" {
			msg += " (" + line(f.Detail) + ")"
		}
		p.hang(eraIndent, msg)
	}
}

func startupLine(s Server) string {
	var parts []string
	for _, x := range []struct {
		era lab.Era
		st  probe.Stats
	}{{lab.Legacy, s.Startup.Legacy}, {lab.Modern, s.Startup.Modern}} {
		if x.st.N > 0 {
			parts = append(parts, fmt.Sprintf("%s median %s, max %s (n=%d)", x.era, dur(x.st.Median.D()), dur(x.st.Max.D()), x.st.N))
		}
	}
	if st := s.Startup; st.Load > 0 {
		parts = append(parts, fmt.Sprintf("at load %.1f on %d CPUs", st.Load, st.CPUs))
	}
	return strings.Join(parts, "; ")
}

// A cutMark is where clients cut an era's instructions, and who cuts there.
type cutMark struct {
	at  int     // in code points of the text sent
	who Finding // the clients and ways that cut there, as a finding names them
}

// cutMarks are the cuts of era's instructions, one per point, in order.
func cutMarks(s Server, era probe.Era) []cutMark {
	var marks []cutMark
	for _, v := range s.Views {
		if v.Era != era || !v.Truncated {
			continue
		}
		i := slices.IndexFunc(marks, func(m cutMark) bool { return m.at == v.KeptChars })
		if i < 0 {
			marks = append(marks, cutMark{at: v.KeptChars})
			i = len(marks) - 1
		}
		marks[i].who.For = append(marks[i].who.For, Holder{Client: v.Client, Profile: v.Profile, Ways: []string{v.Way}})
	}
	slices.SortStableFunc(marks, func(a, b cutMark) int { return a.at - b.at })
	return marks
}

// cutPieces splits text at the marks: one piece before each mark, and the
// rest; it returns the pieces and the text's length in code points.
func cutPieces(text string, marks []cutMark) ([]string, int) {
	runes := []rune(text)
	var pieces []string
	from := 0
	for _, m := range marks {
		at := min(max(m.at, from), len(runes))
		pieces = append(pieces, string(runes[from:at]))
		from = at
	}
	return append(pieces, string(runes[from:])), len(runes)
}

// cutTexts writes each era's instructions with every profile's cut: one
// mark where clients cut, naming them. The pieces between the cuts are of
// the text sent, each redacted on its own when the report is
// (Report.Redacted), so the cuts stay where they were measured.
func (p *printer) cutTexts(s Server) {
	for _, e := range []probe.EraResult{s.Legacy, s.Modern} {
		if !e.OK() || e.Instructions == nil {
			continue
		}
		marks := cutMarks(s, e.Era)
		pieces, total := cutPieces(*e.Instructions, marks)
		if sh, ok := s.shown[e.Era]; ok {
			pieces, total = sh.pieces, sh.total
		}
		p.hang("  ", fmt.Sprintf("--- %s instructions (%s) ---", e.Era, e.Method))
		for i, m := range marks {
			who := merge([]Finding{m.who}, s.Views)[0].Whom()
			p.verbatim(pieces[i])
			p.hang("  ✂ ", fmt.Sprintf("%s cuts here: %s characters follow", who, table.Num(total-m.at)))
		}
		p.verbatim(pieces[len(pieces)-1])
		p.hang("  ", fmt.Sprintf("--- end of %s instructions ---", e.Era))
	}
}

func sections(n int) string { return table.Plural(n, "section") }

// oneLine shows a piece of text on one line: line breaks as ⏎, and every
// other control or invisible character escaped.
func oneLine(s string) string {
	return untrusted.EscapeLine(strings.NewReplacer("\r\n", "⏎", "\n", "⏎").Replace(s))
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
	default:
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
	}
}

// toolLines say what a view predicts of the server's tool descriptions:
// how many are kept whole, and each one cut, where.
func toolLines(ts []ToolFate) []string {
	if len(ts) == 0 {
		return nil
	}
	var whole, beyond, unsent []string
	var out []string
	for _, t := range ts {
		switch {
		case t.Unsent:
			unsent = append(unsent, line(t.Tool))
		case t.Truncated && t.FirstLine:
			out = append(out, fmt.Sprintf("  tool %s keeps only its first line, %s of %s characters (measured: a description of several lines); cut: …%s ✂ %s…", line(t.Tool), table.Num(t.KeptChars), table.Num(t.Chars), oneLine(t.Before), oneLine(t.After)))
		case t.Truncated:
			out = append(out, fmt.Sprintf("  tool %s keeps %s of %s characters; cut: …%s ✂ %s…", line(t.Tool), table.Num(t.KeptChars), table.Num(t.Chars), oneLine(t.Before), oneLine(t.After)))
		case t.Beyond:
			beyond = append(beyond, line(t.Tool))
		default:
			whole = append(whole, line(t.Tool))
		}
		if t.Meta != "" {
			out = append(out, fmt.Sprintf("  tool %s: as measured for a tool whose _meta holds %s", line(t.Tool), line(t.Meta)))
		}
	}
	if len(unsent) == len(ts) {
		return []string{fmt.Sprintf("tools: no description of the %s reaches the model", table.Plural(len(ts), "tool"))}
	}
	head := fmt.Sprintf("tools: %d of %s kept whole", len(whole)+len(beyond), table.Plural(len(ts), "description"))
	if len(beyond) > 0 {
		head += fmt.Sprintf(" (%s longer than any measured: whole as far as measured)", strings.Join(beyond, ", "))
	}
	if len(unsent) > 0 {
		head += fmt.Sprintf("; not sent: %s", strings.Join(unsent, ", "))
	}
	return append([]string{head}, out...)
}
