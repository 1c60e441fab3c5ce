package assess

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/internal/untrusted"
	"github.com/instrlab/instrlab/lab"
)

// WriteText writes the report for people; show adds each era's
// instructions with every profile's cut marked. Every text a server or a
// config controls is escaped (line by line where it is shown on one
// line), and the whole output once more, so no control character or
// invisible character reaches the terminal as it is.
func WriteText(w io.Writer, rep Report, show bool) error {
	var out bytes.Buffer
	b := bufio.NewWriter(&out)
	for i, s := range rep.Servers {
		if i > 0 {
			fmt.Fprintln(b)
		}
		printServer(b, s, show)
	}
	for _, c := range rep.Combined {
		fmt.Fprintf(b, "\nall servers together in %s: %s characters, ~%s tokens (%s)\n", c.Profile, table.Num(c.Chars), table.Num(c.Tokens), line(strings.Join(c.Servers, ", ")))
		if c.Assumed != "" {
			fmt.Fprintf(b, "  assumed: %s\n", c.Assumed)
		}
	}
	fmt.Fprintf(b, "\ntokens: %s\n", rep.Tokenizer)
	b.Flush()
	_, err := io.WriteString(w, untrusted.Escape(out.String()))
	return err
}

// line escapes a server's or config's text shown on one line.
func line(s string) string { return untrusted.EscapeLine(s) }

func printServer(b *bufio.Writer, s Server, show bool) {
	fmt.Fprintf(b, "%s  %s\n", line(s.Target.Name), line(s.Target.String()))
	if s.Target.Source != "" {
		fmt.Fprintf(b, "  from %s\n", line(s.Target.Source))
	}
	for _, sh := range s.Target.Shadowed {
		fmt.Fprintf(b, "  not used %s (a server of the same name; the scope above wins)\n", line(sh))
	}
	for _, e := range []probe.EraResult{s.Legacy, s.Modern} {
		printEra(b, e, s.Texts)
	}
	printSurvival(b, s.Survival)
	if st := s.Startup; st.Legacy.N+st.Modern.N > 0 {
		from := "spawn"
		if s.Target.Transport == probe.TransportHTTP {
			from = "first request"
		}
		fmt.Fprintf(b, "  startup  %s to first reply: %s\n", from, startupLine(s))
	}
	if s.SameEras != nil {
		if *s.SameEras {
			fmt.Fprintf(b, "  eras     both send the same instructions\n")
		} else {
			fmt.Fprintf(b, "  eras     the instructions differ between initialize and server/discover\n")
			if d := s.EraDiff; d != nil {
				fmt.Fprintf(b, "           from character %s: initialize %q, server/discover %q\n", table.Num(d.At), oneLine(d.Legacy), oneLine(d.Modern))
			}
		}
	}
	for _, v := range s.Views {
		printView(b, v)
	}
	if show {
		printCutTexts(b, s)
	}
	if len(s.Findings) > 0 {
		fmt.Fprintf(b, "  findings\n")
		for _, f := range s.Findings {
			fmt.Fprintf(b, "    %-4s  %-16s %s\n", f.Level, f.Code, line(f.Message))
		}
	}
}

func printEra(b *bufio.Writer, e probe.EraResult, texts []Text) {
	fmt.Fprintf(b, "  %-7s  %s → ", e.Era, e.Method)
	if !e.OK() {
		fmt.Fprintf(b, "%s: %s\n", e.Outcome, line(e.Detail))
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
		parts = append(parts, plural(len(e.Tools), "tool"))
	}
	fmt.Fprintf(b, "ok in %s: %s\n", dur(e.FirstReply.D()), strings.Join(parts, ", "))
	for _, t := range texts {
		if t.Era != e.Era {
			continue
		}
		if !t.Present {
			fmt.Fprintf(b, "           instructions: none (no field)\n")
			continue
		}
		fmt.Fprintf(b, "           instructions: %s characters, %s bytes, ~%s tokens (%s chars/token), %s\n",
			table.Num(t.Chars), table.Num(t.Bytes), table.Num(t.Tokens), strconv.FormatFloat(t.CharsPerToken, 'f', 2, 64), sections(len(t.Sections)))
	}
}

func printSurvival(b *bufio.Writer, sv probe.Survival) {
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
	fmt.Fprintf(b, "  probe    server/discover: %s\n", msg)
	if f := sv.Fallback; f != nil {
		fmt.Fprintf(b, "           then initialize on the same process: %s", f.Outcome)
		if f.Detail != "" {
			fmt.Fprintf(b, " (%s)", line(f.Detail))
		}
		fmt.Fprintln(b)
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
	return strings.Join(parts, "; ")
}

func printView(b *bufio.Writer, v View) {
	fmt.Fprintf(b, "  %s", line(v.Title))
	if v.SameAs != "" {
		fmt.Fprintf(b, ": the same as %s\n", line(v.SameAs))
		return
	}
	defer func() {
		if v.ProfileNote != "" {
			fmt.Fprintf(b, "           profile: %s\n", v.ProfileNote)
		}
	}()
	if v.Era == "" {
		fmt.Fprintf(b, ": nothing (%s)\n", v.Why)
		return
	}
	fmt.Fprintf(b, ": %s era (%s)\n", v.Era, v.Why)
	defer func() {
		for _, l := range factLines(v.Facts) {
			fmt.Fprintf(b, "           %s\n", l)
		}
		for _, l := range toolLines(v.Tools) {
			fmt.Fprintf(b, "           %s\n", l)
		}
	}()
	if !v.Present {
		fmt.Fprintf(b, "           no instructions, so no block in the model's context\n")
		return
	}
	if v.Unused {
		fmt.Fprintf(b, "           puts none of the %s characters in the model's context (measured: no model request held the text)\n", table.Num(v.Chars))
		return
	}
	capNote := v.CapSource
	if v.Setting != "" {
		capNote += ", " + v.Setting
	}
	capText := table.Num(v.Cap)
	if u, err := unit.Parse(v.CapUnit); err == nil && u != unit.CodePoint {
		capText += " " + u.Plural()
	}
	switch {
	case !v.Truncated && v.Cap == 0 && v.AtLeast >= v.Chars:
		fmt.Fprintf(b, "           keeps all %s characters (no text was cut up to %s; a cap above that %s)\n", table.Num(v.Chars), table.Num(v.AtLeast), NotMeasured)
	case !v.Truncated && v.Cap == 0 && v.AtLeast > 0:
		fmt.Fprintf(b, "           keeps all %s characters as far as measured: no text longer than %s was run (%s beyond it)\n", table.Num(v.Chars), table.Num(v.AtLeast), NotMeasured)
	case !v.Truncated && v.Cap == 0 && !v.CapMeasured:
		fmt.Fprintf(b, "           keeps all %s characters (cap %s)\n", table.Num(v.Chars), NotMeasured)
	case !v.Truncated:
		fmt.Fprintf(b, "           keeps all %s characters (cap %s, %s)\n", table.Num(v.Chars), capText, capNote)
	default:
		fmt.Fprintf(b, "           keeps %s of %s characters (cap %s, %s), then %q; loses %s\n",
			table.Num(v.KeptChars), table.Num(v.Chars), capText, capNote, v.Marker, table.Num(v.LostChars))
		fmt.Fprintf(b, "           cut: …%s ✂ %s…\n", oneLine(v.Before), oneLine(v.After))
		if v.Loss.Cut != nil && v.Loss.Cut.Start == 0 && len(v.Loss.Whole) == 0 {
			fmt.Fprintf(b, "           lost: the last %s characters (the text has no headings or paragraphs to name)\n", table.Num(v.LostChars))
		} else if v.Loss.Cut != nil {
			fmt.Fprintf(b, "           lost: %q loses %s of %s characters\n", v.Loss.Cut.Title, table.Num(v.Loss.CutLost), table.Num(v.Loss.Cut.Chars()))
		}
		if n := len(v.Loss.Whole); n > 0 {
			var titles []string
			for _, s := range v.Loss.Whole {
				titles = append(titles, strconv.Quote(s.Title))
			}
			if n > 5 {
				titles = append(titles[:5], fmt.Sprintf("and %d more", n-5))
			}
			fmt.Fprintf(b, "           lost whole: %s\n", strings.Join(titles, ", "))
		}
	}
	fmt.Fprintf(b, "           in context: %s characters, ~%s tokens, as %s\n", table.Num(v.BlockChars), table.Num(v.BlockTokens), v.Placement)
}

// printCutTexts prints each era's instructions with every profile's cut.
func printCutTexts(b *bufio.Writer, s Server) {
	for _, e := range []probe.EraResult{s.Legacy, s.Modern} {
		if !e.OK() || e.Instructions == nil {
			continue
		}
		type mark struct {
			at    int
			title string
		}
		var marks []mark
		for _, v := range s.Views {
			if v.Era == e.Era && v.Truncated && v.SameAs == "" {
				marks = append(marks, mark{v.KeptChars, v.Title})
			}
		}
		slices.SortStableFunc(marks, func(a, b mark) int { return a.at - b.at })
		fmt.Fprintf(b, "  --- %s instructions (%s) ---\n", e.Era, e.Method)
		runes := []rune(*e.Instructions)
		from := 0
		for _, m := range marks {
			b.WriteString(string(runes[from:m.at]))
			fmt.Fprintf(b, "\n  ✂ %s cuts here: %s characters follow\n", m.title, table.Num(len(runes)-m.at))
			from = m.at
		}
		b.WriteString(string(runes[from:]))
		fmt.Fprintf(b, "\n  --- end of %s instructions ---\n", e.Era)
	}
}

func sections(n int) string { return plural(n, "section") }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

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
	var whole, beyond []string
	var out []string
	for _, t := range ts {
		switch {
		case t.Unsent:
		case t.Truncated:
			out = append(out, fmt.Sprintf("  tool %s keeps %s of %s characters; cut: …%s ✂ %s…", line(t.Tool), table.Num(t.KeptChars), table.Num(t.Chars), oneLine(t.Before), oneLine(t.After)))
		case t.Beyond:
			beyond = append(beyond, line(t.Tool))
		default:
			whole = append(whole, line(t.Tool))
		}
	}
	if ts[0].Unsent {
		return []string{fmt.Sprintf("tools: no description of the %s reaches the model", plural(len(ts), "tool"))}
	}
	head := fmt.Sprintf("tools: %d of %s kept whole", len(whole)+len(beyond), plural(len(ts), "description"))
	if len(beyond) > 0 {
		head += fmt.Sprintf(" (%s longer than any measured: whole as far as measured)", strings.Join(beyond, ", "))
	}
	return append([]string{head}, out...)
}
