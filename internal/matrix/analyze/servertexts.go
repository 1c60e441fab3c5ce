package analyze

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/redact"
	"github.com/instrlab/instrlab/internal/stderr"
	"github.com/instrlab/instrlab/internal/unit"
	"github.com/instrlab/instrlab/lab"
)

// ServerTexts are a server's own texts as its replies carried them, taken
// from the proxy's message log (lab.Entry.Body): the instructions per era
// and each tool's and prompt's description.
type ServerTexts struct {
	Instructions map[lab.Reply]string `json:"instructions,omitempty"`
	Tools        []NamedText          `json:"tools,omitempty"`
	Prompts      []NamedText          `json:"prompts,omitempty"`
	// Prints are each reply's instructions, and ToolsPrint the tool list
	// (nil when tools/list was not answered), in a length and a digest,
	// as check names what it examined (fingerprint): the two started the
	// server each on their own, and these say whether they saw the same.
	Prints     map[lab.Reply]fingerprint.Text `json:"prints,omitempty"`
	ToolsPrint *fingerprint.Tools             `json:"tools_print,omitempty"`
}

// Print says what the runs examined in a line: each reply's
// instructions and the tool list, by length and digest.
func (st ServerTexts) Print() string {
	var parts []string
	for _, r := range lab.Replies() {
		if p, ok := st.Prints[r]; ok {
			parts = append(parts, string(r)+" instructions "+p.String())
		}
	}
	if st.ToolsPrint != nil {
		parts = append(parts, st.ToolsPrint.String())
	}
	return strings.Join(parts, "; ")
}

// A NamedText is one tool's or prompt's description.
type NamedText struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// serverTexts reads the first reply of each text method in the log.
func serverTexts(msgs []LabMessage) ServerTexts {
	st := ServerTexts{Instructions: map[lab.Reply]string{}}
	seen := map[string]bool{}
	for _, m := range msgs {
		if m.Dir != lab.Send || m.Kind != lab.KindResponse || len(m.Body) == 0 || seen[m.Method] {
			continue
		}
		var reply struct {
			Result struct {
				Instructions string      `json:"instructions"`
				Tools        []NamedText `json:"tools"`
				Prompts      []NamedText `json:"prompts"`
			} `json:"result"`
		}
		if json.Unmarshal(m.Body, &reply) != nil {
			continue
		}
		seen[m.Method] = true
		switch m.Method {
		case "initialize":
			st.Instructions[lab.ReplyInitialize] = reply.Result.Instructions
		case "server/discover":
			st.Instructions[lab.ReplyDiscover] = reply.Result.Instructions
		case "tools/list":
			st.Tools = reply.Result.Tools
			ts := make([]fingerprint.Tool, len(st.Tools))
			for i, t := range st.Tools {
				ts[i] = fingerprint.Tool{Name: t.Name, Description: t.Description}
			}
			tp := fingerprint.ToolsOf(ts)
			st.ToolsPrint = &tp
		case "prompts/list":
			st.Prompts = reply.Result.Prompts
		}
	}
	if len(st.Instructions) > 0 {
		st.Prints = map[lab.Reply]fingerprint.Text{}
		for r, text := range st.Instructions {
			st.Prints[r] = fingerprint.Of(text)
		}
	}
	return st
}

// LostTail names where text was cut after kept characters: the sentence
// the cut falls in, and the headings (Markdown lines starting with #) lost
// with it.
func LostTail(text string, kept int) string {
	if kept >= utf8.RuneCountInString(text) {
		return ""
	}
	cut := len(text)
	for i := range text { // the byte offset of rune number kept
		if kept == 0 {
			cut = i
			break
		}
		kept--
	}
	start := 0
	for _, sep := range []string{". ", ".\n", "\n"} {
		if i := strings.LastIndex(text[:cut], sep); i >= 0 && i+len(sep) > start {
			start = i + len(sep)
		}
	}
	out := fmt.Sprintf("cut in %q", unit.CodePoint.Prefix(strings.TrimSpace(text[start:]), 50))
	var headings []string
	for _, line := range strings.Split(text[cut:], "\n")[1:] {
		if h := strings.TrimSpace(line); strings.HasPrefix(h, "#") {
			headings = append(headings, unit.CodePoint.Prefix(h, 40))
		}
	}
	if len(headings) > 0 {
		out += fmt.Sprintf("; lost %d heading(s) from %q", len(headings), headings[0])
	}
	return out
}

// outsideSignals end a server without it failing on its own: another
// process sent them (the proxy's own stop says so in its note instead).
var outsideSignals = []string{"signal: terminated", "signal: killed", "signal: interrupt", "signal: hangup"}

// serverFailure says why the proxy's log shows a failed server, or "": it
// could not be started or reached, it ended while the client was
// connected, it wrote what is not JSON-RPC, or it never answered the
// handshake. The reason quotes the lines of the server's stderr that say
// why (stderr.Lines). lastModel
// is the time of the last model request (zero when none): a server
// stopped by a signal from outside after it is a client ending its
// session (Copilot CLI 1.0.102 sends SIGTERM to its servers' processes),
// which cannot have changed what the model saw; so is one stopped so
// right after its last reply was an error, before or after the model
// request: the client stopping a server it dropped on that error (Copilot
// CLI 1.0.102 on a failed tools/list, SIGTERM 80 ms later, before its
// model request in 2 of 10 runs: a race the run's status must not
// follow). Those are warnings, not failures.
func serverFailure(msgs []LabMessage, lastModel time.Time) (reason, warning string) {
	var why []string
	var stderrText strings.Builder
	var asked time.Time
	answered := false
	lastError := "" // the method of the server's last reply, when it was an error
	for _, m := range msgs {
		if m.Dir == lab.Send && (m.Kind == lab.KindResponse || m.Kind == lab.KindError) {
			lastError = ""
			if m.Kind == lab.KindError {
				lastError = cmp.Or(m.Method, "a request")
			}
		}
		switch {
		case m.Dir == lab.ServerDir && m.Kind == lab.KindStderr && m.Raw != "":
			if stderrText.Len() < stderr.MaxRead {
				stderrText.WriteString(m.Raw + "\n")
			}
		case m.Dir == lab.ServerDir && m.Kind == lab.KindExit && strings.Contains(m.Note, "while the client was connected"):
			outside := slices.ContainsFunc(outsideSignals, func(s string) bool { return strings.Contains(m.Note, s) })
			if outside && !lastModel.IsZero() && m.Time.After(lastModel) {
				warning = "server: " + m.Note + ", after the last model request: a signal from outside the proxy, as a client stopping its servers sends; not counted as a failure"
				continue
			}
			if outside && lastError != "" {
				warning = "server: " + m.Note + ", after its last reply, to " + lastError + ", was an error: a signal from outside the proxy, as a client stopping a server it dropped sends; not counted as a failure"
				continue
			}
			why = append(why, m.Note)
		case m.Dir == lab.ServerDir && m.Kind == lab.KindFailure:
			why = append(why, m.Note)
		case m.Dir == lab.Send && m.Kind == lab.KindInvalid && m.Unread:
			// Valid, perhaps, and passed on whole: not the server's
			// failure, but nothing the log could read.
			warning = fmt.Sprintf("server: wrote a line the log could not read (%s), passed on to the client as it came", m.Note)
		case m.Dir == lab.Send && m.Kind == lab.KindInvalid:
			why = append(why, fmt.Sprintf("the server wrote a line that is not JSON-RPC: %q", unit.CodePoint.Prefix(redact.String(m.Raw), 60)))
		case m.Dir == lab.Recv && (m.Method == "initialize" || m.Method == "server/discover"):
			if asked.IsZero() {
				asked = m.Time
			}
		case m.Dir == lab.Send && (m.Method == "initialize" || m.Method == "server/discover"):
			answered = true
		}
	}
	if !asked.IsZero() && !answered && len(why) == 0 {
		never := "the server never answered the handshake"
		if !lastModel.IsZero() && lastModel.After(asked) {
			// The client went on without it: a late server, which the
			// run measured (Timing; the verdict says so), not a failure.
			return "", fmt.Sprintf("server: never answered the handshake before the client went on without it (it asked %.1f s before its last model request): a late server, not a failure", lastModel.Sub(asked).Seconds())
		}
		why = append(why, never)
	}
	if len(why) == 0 {
		return "", warning
	}
	reason = "server: " + strings.Join(dedupe(why), "; ")
	if q := stderr.Quote(stderrText.String()); q != "" {
		reason += "; its stderr: " + redact.String(q)
	}
	return reason, warning
}

func dedupe(list []string) []string {
	var out []string
	for _, s := range list {
		if !contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// heldUnanswered says the row's proxy holds the server's first reply
// (init_delay on a server row) and the log shows no reply that completes
// the handshake passed on: the session ended during the hold.
func heldUnanswered(row matrix.Row, msgs []LabMessage) bool {
	if row.Server == "" || row.InitDelay == 0 {
		return false
	}
	for _, m := range msgs {
		if m.Dir == lab.Send && m.Kind == lab.KindResponse && (m.Method == lab.Legacy.Method() || m.Method == lab.Modern.Method()) {
			return false
		}
	}
	return true
}
