package report

import (
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/surface"
)

// TestCallsTable: run's summary of a -call run of a user's server says,
// per client, the name the model called the tool by, whether the server
// got it, what of each part reached the model, and a scripted call the
// client never made as "did not call" with why; runs that differ are
// counted; runs of the lab get no calls table.
func TestCallsTable(t *testing.T) {
	text := surface.Found{Part: "content[0] text", SentForm: surface.FormText, Sent: 56}
	structured := surface.Found{Part: "structuredContent", SentForm: surface.FormJSON, Sent: 56}
	call := func(name string, textReached, structuredReached bool) surface.CallFacts {
		p, q := text, structured
		if p.Reached = textReached; textReached {
			p.Form, p.Full, p.InResult, p.Kept = surface.FormText, true, true, p.Sent
		}
		if q.Reached = structuredReached; structuredReached {
			q.Form, q.Full, q.InResult, q.Kept = surface.FormJSON, true, true, q.Sent
		}
		return surface.CallFacts{Tool: "get-structured-content", Name: name, Reached: true, Answer: surface.AnswerResult,
			Request: 1, Following: 2, Parts: []surface.Found{p, q}}
	}
	same := call("mcp__everything__get-structured-content", true, true)
	same.Parts[0].SameAs, same.Parts[1].SameAs = "structuredContent", "content[0] text"
	same.Parts[0].Form = surface.FormJSON
	facts := func(c ...surface.CallFacts) *analyze.SurfaceFacts { return &analyze.SurfaceFacts{Calls: c} }
	results := []analyze.Result{
		{Client: "codex@0.171.0", Row: "server", Status: "ok", Server: "everything", Surface: facts(call("get_structured_content", true, false))},
		{Client: "cline@3.0.65", Row: "server", Status: "ok", Server: "everything", Surface: facts(call("everything__get-structured-content", true, true))},
		{Client: "cline@3.0.65", Row: "server", Status: "ok", Server: "everything", Surface: facts(call("everything__get-structured-content", true, true))},
		{Client: "claude-code@2.1.332", Row: "server", Status: "ok", Server: "everything", Surface: facts(same)},
		{Client: "droid@0.225.2", Row: "server", Status: "ok", Server: "everything",
			Surface: &analyze.SurfaceFacts{NotCalled: []surface.Missed{{Tool: "get-structured-content", Why: surface.MissedNotOffered}}}},
		{Client: "droid@0.225.2", Row: "server", Status: "ok", Server: "everything", Surface: facts(call("everything___get-structured-content", false, true))},
	}
	// What the model got where a part was not whole: the start of the
	// call's result in the request, quoted (the escape is the server's).
	results[0].Surface.Calls[0].Instead, results[0].Surface.Calls[0].ResultChars = "Wall time: 0.1\x1b[31m", 30
	// The model the runner had Codex name for the calls is said, once.
	results[0].Model, results[0].ModelWhy = "local-model", "its default cannot call them"
	t.Setenv("COLUMNS", "300") // a line per call
	var b strings.Builder
	if err := New(nil, results, "").Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	calls, ok := strings.CutPrefix(out[strings.Index(out, "Calls of the server's tools"):], "Calls of the server's tools")
	if !ok {
		t.Fatalf("no calls table in the summary:\n%s", out)
	}
	line := func(client string) string {
		var ls []string
		for _, l := range strings.Split(calls, "\n") {
			if strings.Contains(l, client) {
				ls = append(ls, strings.Join(strings.Fields(l), " "))
			}
		}
		return strings.Join(ls, "\n")
	}
	for client, want := range map[string][]string{
		"codex@0.171.0":       {"get_structured_content yes content[0] text: kept (text); structuredContent: dropped; the call's result in the request (30 characters) begins \"Wall time: 0.1\\x1b[31m\""},
		"cline@3.0.65":        {"content[0] text: kept (text); structuredContent: kept (json)"},
		"claude-code@2.1.332": {"content[0] text = structuredContent: reached as json (one text: which of the two the client gave cannot be told)"},
		"droid@0.225.2": {"did not call: the client never offered it to the model (1 of 2 runs)",
			"content[0] text: dropped; structuredContent: kept (json) (1 of 2 runs)"},
	} {
		got := line(client)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s's lines\n%s\nlack %q\n(the table:\n%s)", client, got, w, calls)
			}
		}
	}
	if n := strings.Count(strings.Join(strings.Fields(calls), " "), "codex@0.171.0 ran with model local-model, not its default, for the calls: its default cannot call them"); n != 1 {
		t.Errorf("the model Codex ran with is said %d times, want once:\n%s", n, calls)
	}
	if strings.Contains(calls, "cline@3.0.65 ran with") {
		t.Errorf("a client run with its own model is said to run with another:\n%s", calls)
	}
	if strings.HasPrefix(strings.TrimSpace(calls[strings.Index(calls, "\n")+1:]), "row ") {
		t.Errorf("one row, yet a column names it:\n%s", calls)
	}
	if strings.Contains(line("cline@3.0.65"), "runs)") {
		t.Errorf("cline's two runs agree, yet are counted:\n%s", line("cline@3.0.65"))
	}
	b.Reset()
	if err := New(nil, results, "").Write(&b, "html"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "did not call: the client never offered it to the model") {
		t.Error("the page's result grid does not say Droid did not call the tool")
	}

	lab := append([]analyze.Result(nil), results...)
	for i := range lab {
		lab[i].Server = ""
	}
	b.Reset()
	if err := New(nil, lab, "").Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Calls of the server's tools") {
		t.Errorf("a run of the lab printed a calls table:\n%s", b.String())
	}
}
