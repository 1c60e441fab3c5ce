package analyze

import (
	"fmt"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/tokens"
	"github.com/instrlab/instrlab/lab"
)

// Clients finds the client a run's record names (name@version), whose
// Observe reads the client's own files: the registry's clients.New, or the
// runner's own client.
type Clients func(spec string) (client.Client, error)

// Run derives a Result from the evidence in one run dir: the run record,
// the recorded API requests, the lab's message log and, through the client
// clients finds for it, the client's own files. Unreadable evidence, and a
// client clients does not find, become warnings, never a silent gap.
//
// Each step reads one kind of evidence or derives one group of the
// Result's fields. They run in the order their warnings are listed in,
// the lab log's after the requests' and the server's.
func Run(dir string, clients Clients) (Result, error) {
	rec, err := ReadRecord(dir)
	if err != nil {
		return Result{}, err
	}
	a := &analysis{dir: dir, rec: rec, res: resultOf(rec, dir)}
	a.generateTexts()
	a.readLabLog()
	if textsInLog(rec.Row) {
		a.loggedTexts()
	}
	a.readRequests()
	a.requestFacts()
	a.mainRequestFacts()
	a.judgeServer()
	a.warn(a.labWarnings...)
	a.connection()
	a.outside()
	a.observe(clients)
	a.res.Timing = timing(rec, a.msgs, &a.res)
	notCalled(&a.res)
	return a.res, nil
}

// An analysis is one run's evidence as Run reads it, step by step, and
// the Result the steps fill in.
type analysis struct {
	dir string
	rec Record
	res Result
	// texts are the lab's texts for each reply, looked for in every
	// request and in the client's transcript.
	texts map[lab.Reply]string
	// msgs is the lab's message log; labWarnings are its reader's
	// warnings, listed after the requests' (as they always were).
	msgs        []LabMessage
	labWarnings []string
	reqs        []fakeapi.Request
	// bodies and ctxs are those of the model requests, one for each of
	// res.Requests.
	bodies [][]byte
	ctxs   []fakeapi.Context
}

// resultOf is the Result's part that the run record says as it is.
func resultOf(rec Record, dir string) Result {
	return Result{Client: rec.Client.String(), Arm: ArmFactsOf(rec.Arm), Row: rec.Row.Name, Label: rec.Row.Label, Repeat: rec.Repeat, Dir: dir,
		Status: rec.Status, Reason: rec.Reason, Live: rec.Live, Instr: rec.Row.Instr, Eras: rec.Row.Eras, Model: rec.Model, ModelWhy: rec.ModelWhy,
		NoDelta: rec.Row.NoDelta, Plain: rec.Row.Plain(), ClientMS: rec.ClientMS, ClientCPUMS: rec.ClientCPUMS, Requests: []RequestFacts{}}
}

func (a *analysis) warn(warnings ...string) {
	a.res.Warnings = append(a.res.Warnings, warnings...)
}

// generateTexts makes the texts the lab sent from the row's -instr, as
// the lab generated them, and for a row of several lab servers the first
// one's, whose codewords are seeded with its name. A row that serves a
// file of the user's leaves them to loggedTexts.
func (a *analysis) generateTexts() {
	a.texts = map[lab.Reply]string{}
	row := a.rec.Row
	if row.InstrFile != "" {
		// read from the lab's log (loggedTexts)
	} else if in, err := lab.ParseInstructions(row.Instr); err != nil {
		a.warn(fmt.Sprintf("%s: row instr: %v", evidence.RecordFile, err))
	} else if in.Present() {
		for _, reply := range lab.Replies() {
			t, err := in.For(reply)
			if err != nil {
				a.warn(fmt.Sprintf("generating the %s text: %v", reply, err))
				continue
			}
			a.texts[reply] = t.Text
		}
		a.res.Sent = utf8.RuneCountInString(a.texts[lab.ReplyInitialize])
	}
	if len(row.Servers) > 0 {
		if t, err := labServerText(row.LabServers()[0]); err == nil {
			a.texts, a.res.Sent = t, utf8.RuneCountInString(t[lab.ReplyInitialize])
		}
	}
}

// readLabLog reads the lab's message log. It is read before the requests,
// since a user's server's texts are in it.
func (a *analysis) readLabLog() {
	var err error
	a.msgs, a.labWarnings, err = ReadLabLog(evidence.RunDir(a.dir).LabLog())
	if err != nil {
		a.labWarnings = append(a.labWarnings, err.Error())
	}
}

// textsInLog says whether the texts a row's run sent are read from its
// log rather than generated again from the row's -instr: a user's server
// behind the proxy, the lab serving the user's file, or the lab's many
// tools or long name (instrlab budget).
func textsInLog(row matrix.Row) bool {
	return row.Server != "" || row.InstrFile != "" || row.ToolDesc != "" || row.ToolDescFile != "" || len(row.ToolMeta) > 0 ||
		row.Fail != "" || row.Tools > 0 || row.NameLength > 0
}

// loggedTexts takes the texts from what the replies carried (both the
// lab's and the proxy's logs keep them), so that each tool is located in
// the first request and a server that failed fails the run (judgeServer).
func (a *analysis) loggedTexts() {
	st := serverTexts(a.msgs)
	a.res.Server, a.res.ServerTexts, a.res.ServerStart = a.rec.Row.Server, &st, a.rec.Server
	a.texts = st.Instructions
	a.res.Sent = utf8.RuneCountInString(a.texts[lab.ReplyInitialize])
	if a.res.Sent == 0 {
		a.res.Sent = utf8.RuneCountInString(a.texts[lab.ReplyDiscover])
	}
	if a.rec.Row.InstrFile != "" {
		a.res.Instr = "file:" + filepath.Base(a.rec.Row.InstrFile)
	}
}

// readRequests reads the recorded API requests and what of the server's
// tool results, schemas and names they carried (Surface).
func (a *analysis) readRequests() {
	reqs, warns, err := fakeapi.ReadRequests(evidence.RunDir(a.dir).Requests())
	a.reqs = reqs
	a.warn(warns...)
	if err != nil {
		a.warn(err.Error())
	}
	surface, warns := surfaceFacts(a.dir, a.rec.Row, a.reqs, a.msgs)
	a.res.Surface = surface
	a.warn(warns...)
}

// requestFacts makes the facts of each model request: its size, the tools
// it offers and where each of the lab's texts is placed in it. A request
// to no model API (a HEAD, a count of tokens) is listed in Other.
func (a *analysis) requestFacts() {
	for _, q := range a.reqs {
		api, ok := fakeapi.Lookup(q.API)
		if !ok || len(q.Body) == 0 || filepath.Base(q.Path) == "count_tokens" {
			a.res.Other = append(a.res.Other, fmt.Sprintf("%s %s %d", q.Method, q.Path, q.Status))
			continue
		}
		ctx, err := api.Context(q.Body)
		if err != nil {
			a.warn(fmt.Sprintf("%s request %d: %v", evidence.RequestsName, q.Seq, err))
			continue
		}
		f := RequestFacts{Seq: q.Seq, Time: q.Time, API: q.API, Chars: ctx.Chars(), Tokens: tokens.Count(ctx.Text()), Bytes: len(q.Body), Tools: []string{}}
		for _, s := range ctx {
			if s.Kind == fakeapi.KindToolDefinition {
				f.Tools = append(f.Tools, s.Name)
			}
		}
		for _, reply := range lab.Replies() {
			f.Placements = append(f.Placements, locate(ctx, reply, a.texts[reply])...)
		}
		a.res.Requests = append(a.res.Requests, f)
		a.bodies = append(a.bodies, q.Body)
		a.ctxs = append(a.ctxs, ctx)
	}
}

// mainRequestFacts reads the main requests, those that offer tools (side
// requests, for titles or routing classifiers, offer none): the first
// one's layout, key and tools, what a reader of the last one answers and
// how the conversation kept its prefix across them.
func (a *analysis) mainRequestFacts() {
	if len(a.res.Requests) == 0 {
		a.res.Reader = fakeapi.Answer{Last: -1}
		a.warn("no model request was recorded")
		return
	}
	first, last := mainRequests(a.res.Requests)
	a.res.First = &a.res.Requests[first]
	a.res.First.Parts = layout(a.ctxs[first])
	abs, _ := filepath.Abs(a.dir)
	a.res.RequestKey = requestKey(a.bodies[first], []string{abs, escapedPath(abs)})
	a.toolFacts(first)
	a.res.Reader = fakeapi.Read(a.ctxs[last], a.rec.Row.Prompt)
	sv, err := servedBy(a.msgs, a.rec.Row.Instr, a.rec.Row.SessionTexts)
	if err != nil {
		a.warn(fmt.Sprintf("the texts of each session: %v", err))
	}
	var warns []string
	a.res.Session, warns = session(a.res.Requests, a.bodies, a.ctxs, sv)
	a.warn(warns...)
}

// toolFacts locates the server's tools in the first main request (the
// request at index first): a server's whose texts were logged, or the
// lab's surface tools; else says of every request whether it names a lab
// tool in a text. A row of several lab servers gets each one's text.
func (a *analysis) toolFacts(first int) {
	row := a.rec.Row
	if a.res.ServerTexts != nil {
		a.res.Tools = locateTools(a.ctxs[first], a.res.ServerTexts.Tools, row.ServerName())
	} else {
		// Every request: a server connected after the first shows in a
		// later one only so, in a client that names its tools in a text
		// (budget's late server).
		for i := range a.res.Requests {
			a.res.Requests[i].NamesLabTool = namesLabTool(a.ctxs[i], row.ServerName())
		}
		if row.Surface != "" {
			// The lab's surface tools, each description located as a
			// server's is: what a client trims of the white space around
			// one (labvocab.NamePadded), what it keeps of each.
			a.res.Tools = locateTools(a.ctxs[first], serverTexts(a.msgs).Tools, row.ServerName())
		}
	}
	if len(row.Servers) > 0 {
		var warns []string
		a.res.Servers, warns = locateServers(row, a.ctxs[first])
		a.warn(warns...)
	}
}

// judgeServer fails a run whose logged server failed (loggedTexts), unless
// the proxy was holding its reply on purpose, and adds why the server
// failed to the reason of a run that failed already.
func (a *analysis) judgeServer() {
	if a.res.ServerTexts == nil {
		return
	}
	var lastModel time.Time
	if n := len(a.res.Requests); n > 0 {
		lastModel = a.res.Requests[n-1].Time
	}
	why, warning := serverFailure(a.msgs, lastModel)
	if why != "" && heldUnanswered(a.rec.Row, a.msgs) {
		// The proxy was holding the reply on purpose: a client that did
		// not wait for it is what the row measures.
		warning, why = why+"; the proxy was holding its first reply (init_delay "+a.rec.Row.InitDelay.String()+"), so not counted as a failure", ""
	}
	switch {
	case why != "" && a.res.Status == StatusOK:
		a.res.Status, a.res.Reason = StatusFailed, why
	case why != "": // the client failed too (timed out waiting): say why the server did
		a.res.Reason += "; " + why
	}
	if warning != "" {
		a.warn(warning)
	}
}

// connection reads how the client connected to the server: the handshake,
// and over HTTP the requests of each session, which judge the run too.
func (a *analysis) connection() {
	a.res.Handshake = handshake(a.msgs)
	if a.res.Transport = a.rec.Transport; a.rec.Transport == matrix.TransportHTTP {
		a.res.HTTP = httpFacts(a.msgs)
		a.res.Status, a.res.Reason = a.res.HTTP.judge(a.res.Status, a.res.Reason)
	}
}

// outside lists, for a client run in a loopback-only network namespace,
// the names it asked the namespace's resolver.
func (a *analysis) outside() {
	if !a.rec.Netns {
		return
	}
	var warns []string
	a.res.Netns = true
	a.res.OutsideNames, a.res.VendorHosts, warns = outsideNames(a.dir)
	a.warn(warns...)
}

// observe reads the client's own files through the client clients finds
// for the run, and locates the lab's texts in the instruction blocks its
// transcript recorded adding.
func (a *analysis) observe(clients Clients) {
	c, err := clients(a.rec.Client.String())
	if err != nil {
		a.warn(err.Error())
		return
	}
	a.res.Observation = c.Observe(a.rec.Evidence(a.dir))
	a.res.ModelAnswer = a.res.Observation.Answer
	var blocks fakeapi.Context
	for _, b := range a.res.Observation.Instructions {
		blocks = append(blocks, fakeapi.Segment{Kind: fakeapi.Kind("role " + b.Role), Path: b.Where, Text: b.Text})
	}
	for _, reply := range lab.Replies() {
		a.res.Transcript = append(a.res.Transcript, locate(blocks, reply, a.texts[reply])...)
	}
	a.warn(a.res.Observation.Warnings...)
}

// mainRequests marks the requests that offer no tools as Side when another
// request does, and returns the indexes of the first and last main ones
// (of the first and last request when none offers tools).
func mainRequests(reqs []RequestFacts) (first, last int) {
	first, last = -1, len(reqs)-1
	for i := range reqs {
		if len(reqs[i].Tools) > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return 0, len(reqs) - 1
	}
	for i := range reqs {
		reqs[i].Side = len(reqs[i].Tools) == 0
	}
	return first, last
}
