package analyze

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/lab"
)

// A Session is what a run's conversation kept from one model turn to the
// next: its turns are the main requests (those that offer tools: side
// requests are not the conversation), each compared with the one before.
// Nil for a run of fewer than two main requests.
type Session struct {
	// Turns are the sequence numbers of the conversation's requests.
	Turns []int `json:"turns"`
	// Pairs compare each turn with the one before: Pairs[i] is Turns[i]
	// against Turns[i+1].
	Pairs []TurnPair `json:"pairs"`
	// Stable reports that every pair's prefix is stable.
	Stable bool `json:"stable"`
	// ToolOrder is the order the client offered the lab's tools in,
	// against the orders the lab listed them in: ToolOrderServer,
	// ToolOrderName or ToolOrderOther; "" when not measured (no request
	// offers two of the lab's tools, or every listing was in name order,
	// so that keeping and sorting look alike).
	ToolOrder string `json:"tool_order,omitempty"`
	// OfferedOrder is the lab's tools in the order of the first request
	// that offers two of them (labOrder), by the server's names; Listings are the
	// orders of the lab's tools/list replies. Both are kept only when
	// ToolOrder is measured.
	OfferedOrder []string `json:"offered_order,omitempty"`
	// OfferedIn says where OfferedOrder was read: OfferedDefinitions or
	// OfferedNamed.
	OfferedIn string     `json:"offered_in,omitempty"`
	Listings  [][]string `json:"listings,omitempty"`
}

// The orders Session.ToolOrder names.
const (
	ToolOrderServer = "server" // the order of one of the lab's listings
	ToolOrderName   = "name"   // sorted by name, which no listing had
	ToolOrderOther  = "other"  // neither
)

// A TurnPair is one turn against the one before.
type TurnPair struct {
	From int `json:"from"` // the earlier request's sequence number
	To   int `json:"to"`
	PrefixChange
	// Instructions is what became of the server's instructions:
	// "same place", "moved: A → B", "same message, another form: A → B"
	// (the text where it was, in a message rewritten), "re-sent: also at
	// B", "dropped", "added"; "" when neither request holds them.
	Instructions string `json:"instructions,omitempty"`
	// Tools is what became of the lab's tool definitions: "same",
	// "reordered", "changed", "dropped", "added", or "N → M" when some
	// came or went; "" when neither request offers any.
	Tools string `json:"tools,omitempty"`
	// Reopened lists the JSON-RPC requests the client sent the server to
	// open a session between the two requests and in it, all through the
	// run (over HTTP, the server having lost the one before), by method,
	// sorted (a client that opens two at once, or sends its lists at
	// once, sends them in either order), each as often as it was sent;
	// nil when it opened none.
	Reopened []string `json:"reopened,omitempty"`
	// Texts says which sessions' instructions the two requests hold,
	// by the lab's count of its initialize replies, when the row gives
	// each session a text of its own (-session-texts) and the two
	// differ: "1 → 3" (the later holds the third's), "1 → 1, 3" (both),
	// "1 → none"; "" when they hold the same.
	Texts string `json:"texts,omitempty"`
}

// Sessions counts the sessions the client opened between the two turns
// (its initialize requests among Reopened).
func (p TurnPair) Sessions() int {
	n := 0
	for _, m := range p.Reopened {
		if m == lab.Legacy.Method() {
			n++
		}
	}
	return n
}

// Relisted reports whether the client listed the server's tools again
// in a session it opened between the two turns (at any time in it).
func (p TurnPair) Relisted() bool { return slices.Contains(p.Reopened, "tools/list") }

// served is what the lab's log shows that the comparison of turns reads:
// the orders of its tools/list replies, the sessions the client opened
// after its first, and, for a row that gives each session a text of its
// own, each initialize's text by its codewords.
type served struct {
	listings [][]string
	reopened []reopening
	texts    []sessionText
}

// A sessionText is the text of the lab's n-th initialize reply, by its
// codewords (lab.Instructions.ForSession).
type sessionText struct {
	n          int
	begin, end string
}

// servedBy reads what a run's lab served: msgs is its log, instr the
// row's instructions, each whether the row gave every session a text of
// its own (session_texts).
func servedBy(msgs []LabMessage, instr string, each bool) (served, error) {
	sv := served{listings: toolListings(msgs), reopened: reopenings(msgs)}
	if !each {
		return sv, nil
	}
	in, err := lab.ParseInstructions(instr)
	if err != nil {
		return sv, err
	}
	n := 0
	for _, m := range msgs {
		if m.Dir == lab.Recv && m.Kind == lab.KindRequest && m.Method == lab.Legacy.Method() {
			n++
		}
	}
	for k := 1; k <= n; k++ {
		t, err := in.ForSession(lab.ReplyInitialize, k)
		if err != nil {
			return sv, err
		}
		sv.texts = append(sv.texts, sessionText{k, t.Begin, t.End})
	}
	return sv, nil
}

// held lists the sessions whose text ctx holds (either codeword), as
// "1, 3"; "none" when it holds none.
func (sv served) held(ctx fakeapi.Context) string {
	text := ctx.Text()
	var ns []string
	for _, t := range sv.texts {
		if t.begin != "" && strings.Contains(text, t.begin) || t.end != "" && strings.Contains(text, t.end) {
			ns = append(ns, fmt.Sprint(t.n))
		}
	}
	if len(ns) == 0 {
		return "none"
	}
	return strings.Join(ns, ", ")
}

// session compares the main requests of a run: facts are what Run made of
// its model requests, bodies and ctxs their bodies and contexts (by
// index); sv what the lab served.
func session(facts []RequestFacts, bodies [][]byte, ctxs []fakeapi.Context, sv served) (*Session, []string) {
	var warns []string
	var turns []int
	for i := range facts {
		if len(facts[i].Tools) > 0 {
			turns = append(turns, i)
		}
	}
	if len(turns) < 2 {
		return nil, nil
	}
	s := &Session{Stable: true, Listings: sv.listings}
	var names []string
	for _, l := range sv.listings {
		for _, n := range l {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	var prev prefix
	for k, i := range turns {
		s.Turns = append(s.Turns, facts[i].Seq)
		p, err := parsePrefix(facts[i].API, bodies[i])
		if err != nil {
			warns = append(warns, fmt.Sprintf("request %d: %v", facts[i].Seq, err))
			return nil, warns
		}
		p = p.withTexts(ctxs[i])
		if s.OfferedOrder == nil {
			s.OfferedOrder, s.OfferedIn = labOrder(ctxs[i], names)
		}
		if k > 0 {
			j := turns[k-1]
			pair := TurnPair{From: facts[j].Seq, To: facts[i].Seq, PrefixChange: comparePrefix(prev, p),
				Instructions: movedText(facts[j].Placements, facts[i].Placements),
				Tools:        toolsText(labDefs(ctxs[j], names), labDefs(ctxs[i], names)),
				Reopened:     between(sv.reopened, facts[j].Time, facts[i].Time)}
			if len(sv.texts) > 1 {
				if a, b := sv.held(ctxs[j]), sv.held(ctxs[i]); a != b {
					pair.Texts = a + " → " + b
				}
			}
			s.Stable = s.Stable && pair.Stable
			s.Pairs = append(s.Pairs, pair)
		}
		prev = p
	}
	if s.ToolOrder = judgeOrder(s.OfferedOrder, sv.listings); s.ToolOrder == "" {
		s.OfferedOrder, s.OfferedIn, s.Listings = nil, "", nil // kept only for a judged order
	}
	return s, warns
}

// between lists what the client sent in the sessions it opened after
// from and by to (the times of two requests to the model), sorted: every
// request of each, so that what it sent later in them does not hang on
// when the next request went. When a client opens a session after losing
// one on a turn's tool call, the order is one of cause, not a race: after
// the request whose reply asked for the call, before the one that carries
// its result.
func between(reopened []reopening, from, to time.Time) []string {
	var out []string
	for _, r := range reopened {
		if len(r) > 0 && r[0].at.After(from) && !r[0].at.After(to) {
			for _, m := range r {
				out = append(out, m.method)
			}
		}
	}
	slices.Sort(out)
	return out
}

// judgeOrder says whether offered is the order of a listing, or sorted.
func judgeOrder(offered []string, listings [][]string) string {
	if len(offered) < 2 || len(listings) == 0 {
		return ""
	}
	sorted := slices.Sorted(slices.Values(offered))
	unsorted := false
	for _, l := range listings {
		l = slices.DeleteFunc(slices.Clone(l), func(n string) bool { return !slices.Contains(offered, n) })
		unsorted = unsorted || !slices.Equal(l, sorted)
		if slices.Equal(l, offered) && !slices.Equal(l, sorted) {
			return ToolOrderServer
		}
	}
	switch {
	case !unsorted:
		return "" // every listing was in name order
	case slices.Equal(offered, sorted):
		return ToolOrderName
	}
	return ToolOrderOther
}

// A labDef is one of the lab's tools as a request defines it: the
// server's name and the definition's text.
type labDef struct{ name, text string }

// labDefs are the definitions of ctx that are the lab's tools (names, by
// the server's names, behind any client prefix), each with its text
// without cache_control where it is JSON.
func labDefs(ctx fakeapi.Context, names []string) []labDef {
	var out []labDef
	for _, s := range ctx {
		if s.Kind != fakeapi.KindToolDefinition {
			continue
		}
		text := s.Text
		if c, err := canonical(json.RawMessage(text), nil); err == nil {
			text = string(c) // without cache_control
		}
		for _, n := range names {
			if fakeapi.ToolNamed(s.Name, n) {
				out = append(out, labDef{n, text})
				break
			}
		}
	}
	return out
}

// labOrder is the order ctx offers two or more of the lab's tools in: as
// definitions, else named in one text (the list of a client that defers
// them), the text that names the most; nil when neither.
func labOrder(ctx fakeapi.Context, names []string) ([]string, string) {
	var out []string
	for _, d := range labDefs(ctx, names) {
		out = append(out, d.name)
	}
	if len(out) >= 2 {
		return out, OfferedDefinitions
	}
	out = nil
	for _, s := range ctx {
		if s.Kind == fakeapi.KindToolDefinition || s.Kind == fakeapi.KindAssistantTurn || s.Kind == fakeapi.KindToolResult {
			continue
		}
		var named []string
		for _, tok := range strings.FieldsFunc(s.Text, notNameRune) {
			for _, n := range names {
				if fakeapi.ToolNamed(tok, n) && !slices.Contains(named, n) {
					named = append(named, n)
				}
			}
		}
		if len(named) > len(out) {
			out = named
		}
	}
	if len(out) >= 2 {
		return out, OfferedNamed
	}
	return nil, ""
}

// Where Session.OfferedOrder was read.
const (
	OfferedDefinitions = "definitions" // the request's tool definitions
	OfferedNamed       = "named"       // a text naming them (deferred tools)
)

// notNameRune reports a character that no tool name holds, as
// fakeapi's reading of a list of deferred tools splits it.
func notNameRune(r rune) bool {
	return !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
}

// toolsText says what became of the lab's definitions from a to b.
func toolsText(a, b []labDef) string {
	names := func(ds []labDef) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.name)
		}
		return slices.Sorted(slices.Values(out))
	}
	if w, ok := presence(len(a), len(b)); ok {
		return w
	}
	switch {
	case slices.Equal(a, b):
		return "same"
	case !slices.Equal(names(a), names(b)):
		return fmt.Sprintf("%d → %d", len(a), len(b))
	}
	byName := func(x, y labDef) int { return strings.Compare(x.name, y.name) }
	sa, sb := slices.SortedFunc(slices.Values(a), byName), slices.SortedFunc(slices.Values(b), byName)
	if slices.Equal(sa, sb) {
		return "reordered"
	}
	return "changed"
}

// presence says what became of what a request held na of and the next
// nb, when either held none: "" (neither), "dropped" or "added"; ok is
// false when both held some.
func presence(na, nb int) (string, bool) {
	switch {
	case na == 0 && nb == 0:
		return "", true
	case nb == 0:
		return "dropped", true
	case na == 0:
		return "added", true
	}
	return "", false
}

// movedText says what became of the server's instructions from the
// placements of one request to the next.
func movedText(a, b []Placement) string {
	paths := func(ps []Placement) []string {
		var out []string
		for _, p := range ps {
			if !slices.Contains(out, p.Path) {
				out = append(out, p.Path)
			}
		}
		return out
	}
	pa, pb := paths(a), paths(b)
	if w, ok := presence(len(pa), len(pb)); ok {
		return w
	}
	if slices.Equal(pa, pb) {
		return "same place"
	}
	var gone, added []string
	for _, p := range pa {
		if !slices.Contains(pb, p) {
			gone = append(gone, p)
		}
	}
	for _, p := range pb {
		if !slices.Contains(pa, p) {
			added = append(added, p)
		}
	}
	if len(gone) == 0 {
		return "re-sent: also at " + strings.Join(added, ", ")
	}
	what := "moved"
	if slices.Equal(messageOf(gone), messageOf(added)) {
		what = "same message, another form" // a block list made a string, say
	}
	return what + ": " + strings.Join(gone, ", ") + " → " + strings.Join(pb, ", ")
}

// messageOf are the messages paths are in, as "messages[1]" of
// "messages[1].content[0].text", in order, each once.
func messageOf(paths []string) []string {
	var out []string
	for _, p := range paths {
		if i := strings.IndexByte(p, ']'); i >= 0 {
			p = p[:i+1]
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// toolListings are the orders of the tools/list replies of a lab's log,
// by the tools' names.
func toolListings(msgs []LabMessage) [][]string {
	var out [][]string
	for _, m := range msgs {
		if m.Dir != lab.Send || m.Kind != lab.KindResponse || m.Method != "tools/list" || len(m.Body) == 0 {
			continue
		}
		var reply struct {
			Result struct {
				Tools []struct {
					Name string `json:"name"`
				} `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(m.Body, &reply) != nil {
			continue
		}
		var names []string
		for _, t := range reply.Result.Tools {
			names = append(names, t.Name)
		}
		out = append(out, names)
	}
	return out
}

// Line says the session in a few words, for the table's "prefix stable"
// cell: "yes (3 turns)", or "no: tool order (turn 1 → 2, 812 of 40,112
// bytes)", then the order of the lab's tools when measured.
func (s *Session) Line() string {
	if s == nil {
		return ""
	}
	var line string
	if s.Stable {
		line = fmt.Sprintf("yes (%d turns)", len(s.Turns))
	} else {
		var parts []string
		for i, p := range s.Pairs {
			if !p.Stable {
				parts = append(parts, fmt.Sprintf("%s (turn %d → %d, %s of %s bytes)", strings.Join(p.Changed, ", "), i+1, i+2, table.Num(p.Same), table.Num(p.Of)))
			}
		}
		line = "no: " + strings.Join(parts, "; ")
	}
	line += s.reopenedWords()
	if w, ok := orderWords[s.ToolOrder]; ok {
		line += "; lab's tools " + w
	}
	return line
}

// reopenedWords says where the client opened a new session, and whether
// it listed the tools in it: "; a new session before turn 3, tools listed
// again"; then where it changed the sessions' texts it holds: "; the
// instructions of session 1 → 2 (turn 2 → 3)"; "" when neither.
func (s *Session) reopenedWords() string {
	var w string
	for i, p := range s.Pairs {
		if len(p.Reopened) == 0 {
			continue
		}
		listed := "tools not listed again"
		if p.Relisted() {
			listed = "tools listed again"
		}
		what := "a new session"
		if n := p.Sessions(); n > 1 {
			what = fmt.Sprintf("%d new sessions", n)
		}
		w += fmt.Sprintf("; %s before turn %d, %s", what, i+2, listed)
	}
	for i, p := range s.Pairs {
		if p.Texts != "" {
			w += fmt.Sprintf("; the instructions of session %s (turn %d → %d)", p.Texts, i+1, i+2)
		}
	}
	return w
}

var orderWords = map[string]string{
	ToolOrderServer: "in the server's order",
	ToolOrderName:   "sorted by name",
	ToolOrderOther:  "in another order",
}

// Verdict is Line without the counts, for instrlab diff: "yes", or "no:"
// and what changed in each pair that did, then the tools' order.
func (s *Session) Verdict() string {
	if s == nil {
		return ""
	}
	v := "yes"
	if !s.Stable {
		var parts []string
		for i, p := range s.Pairs {
			if !p.Stable {
				parts = append(parts, fmt.Sprintf("%s (turn %d → %d)", strings.Join(p.Changed, ", "), i+1, i+2))
			}
		}
		v = "no: " + strings.Join(parts, "; ")
	}
	v += s.reopenedWords()
	if s.ToolOrder != "" {
		v += "; tool order " + s.ToolOrder
	}
	return v
}
