package matrix

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/redact"
	"github.com/instrlab/instrlab/lab"
)

// ServerTexts are a server's own texts as its replies carried them, taken
// from the proxy's message log (lab.Entry.Body): the instructions per era
// and each tool's and prompt's description.
type ServerTexts struct {
	Instructions map[string]string `json:"instructions,omitempty"` // lab.EraInitialize / lab.EraDiscover → text
	Tools        []NamedText       `json:"tools,omitempty"`
	Prompts      []NamedText       `json:"prompts,omitempty"`
}

// A NamedText is one tool's or prompt's description.
type NamedText struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// serverTexts reads the first reply of each text method in the log.
func serverTexts(msgs []LabMessage) ServerTexts {
	st := ServerTexts{Instructions: map[string]string{}}
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
			st.Instructions[lab.EraInitialize] = reply.Result.Instructions
		case "server/discover":
			st.Instructions[lab.EraDiscover] = reply.Result.Instructions
		case "tools/list":
			st.Tools = reply.Result.Tools
		case "prompts/list":
			st.Prompts = reply.Result.Prompts
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
	out := fmt.Sprintf("cut in %q", firstRunes(strings.TrimSpace(text[start:]), 50))
	var headings []string
	for _, line := range strings.Split(text[cut:], "\n")[1:] {
		if h := strings.TrimSpace(line); strings.HasPrefix(h, "#") {
			headings = append(headings, firstRunes(h, 40))
		}
	}
	if len(headings) > 0 {
		out += fmt.Sprintf("; lost %d heading(s) from %q", len(headings), headings[0])
	}
	return out
}

// stderrLines is how many of the server's first stderr lines a failure
// reason quotes.
const stderrLines = 3

// serverFailure says why the proxy's log shows a failed server, or "": it
// could not be started or reached, it ended while the client was
// connected, it wrote what is not JSON-RPC, or it never answered the
// handshake. The reason quotes the server's first stderr lines.
func serverFailure(msgs []LabMessage) string {
	var why, stderr []string
	asked, answered := false, false
	for _, m := range msgs {
		switch {
		case m.Dir == lab.ServerDir && m.Kind == lab.KindStderr && m.Raw != "":
			if len(stderr) < stderrLines {
				stderr = append(stderr, firstRunes(redact.String(m.Raw), 160))
			}
		case m.Dir == lab.ServerDir && m.Kind == lab.KindFailure,
			m.Dir == lab.ServerDir && m.Kind == lab.KindExit && strings.Contains(m.Note, "while the client was connected"):
			why = append(why, m.Note)
		case m.Dir == lab.Send && m.Kind == lab.KindInvalid:
			why = append(why, fmt.Sprintf("the server wrote a line that is not JSON-RPC: %q", firstRunes(redact.String(m.Raw), 60)))
		case m.Dir == lab.Recv && (m.Method == "initialize" || m.Method == "server/discover"):
			asked = true
		case m.Dir == lab.Send && (m.Method == "initialize" || m.Method == "server/discover"):
			answered = true
		}
	}
	if asked && !answered && len(why) == 0 {
		why = append(why, "the server never answered the handshake")
	}
	if len(why) == 0 {
		return ""
	}
	reason := "server: " + strings.Join(dedupe(why), "; ")
	if len(stderr) > 0 {
		reason += "; its stderr began: " + strings.Join(stderr, " | ")
	}
	return reason
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
