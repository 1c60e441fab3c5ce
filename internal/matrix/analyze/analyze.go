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
func Run(dir string, clients Clients) (Result, error) {
	rec, err := ReadRecord(dir)
	if err != nil {
		return Result{}, err
	}
	abs, _ := filepath.Abs(dir)
	res := Result{Client: rec.Client.String(), Arm: ArmFactsOf(rec.Arm), Row: rec.Row.Name, Label: rec.Row.Label, Repeat: rec.Repeat, Dir: dir,
		Status: rec.Status, Reason: rec.Reason, Live: rec.Live, Instr: rec.Row.Instr, Era: rec.Row.Era, Model: rec.Model, ModelWhy: rec.ModelWhy,
		NoDelta: rec.Row.NoDelta, Plain: rec.Row.Plain(), ClientMS: rec.ClientMS, ClientCPUMS: rec.ClientCPUMS, Requests: []RequestFacts{}}

	texts := map[lab.Reply]string{}
	if rec.Row.InstrFile != "" {
		// read from the lab's log below
	} else if in, err := lab.ParseInstructions(rec.Row.Instr); err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: row instr: %v", evidence.RecordFile, err))
	} else if in.Present() {
		for _, reply := range lab.Replies() {
			t, err := in.For(reply)
			if err != nil {
				res.Warnings = append(res.Warnings, fmt.Sprintf("generating the %s text: %v", reply, err))
				continue
			}
			texts[reply] = t.Text
		}
		res.Sent = utf8.RuneCountInString(texts[lab.ReplyInitialize])
	}

	if len(rec.Row.Servers) > 0 {
		// The first of several lab servers, whose codewords are seeded
		// with its name.
		if t, err := labServerText(rec.Row.LabServers()[0]); err == nil {
			texts, res.Sent = t, utf8.RuneCountInString(t[lab.ReplyInitialize])
		}
	}

	// The lab's log is read first, since a user's server's texts are in
	// it; its warnings are listed after the requests', as before.
	msgs, labWarns, err := ReadLabLog(evidence.RunDir(dir).LabLog())
	if err != nil {
		labWarns = append(labWarns, err.Error())
	}
	if rec.Row.Server != "" || rec.Row.InstrFile != "" || rec.Row.ToolDesc != "" || rec.Row.ToolDescFile != "" || len(rec.Row.ToolMeta) > 0 || rec.Row.Fail != "" || rec.Row.Tools > 0 || rec.Row.ToolNameLength > 0 {
		// A user's server behind the proxy, the lab serving the user's
		// file, or the lab's many tools or long name (instrlab budget):
		// the texts are what the replies carried (both logs keep them),
		// each tool located in the first request, and a server that
		// failed fails the run.
		st := serverTexts(msgs)
		res.Server, res.ServerTexts, res.ServerStart = rec.Row.Server, &st, rec.Server
		texts = st.Instructions
		res.Sent = utf8.RuneCountInString(texts[lab.ReplyInitialize])
		if res.Sent == 0 {
			res.Sent = utf8.RuneCountInString(texts[lab.ReplyDiscover])
		}
		if rec.Row.InstrFile != "" {
			res.Instr = "file:" + filepath.Base(rec.Row.InstrFile)
		}
	}

	reqs, warns, err := fakeapi.ReadRequests(evidence.RunDir(dir).Requests())
	res.Warnings = append(res.Warnings, warns...)
	if err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	var surfaceWarns []string
	res.Surface, surfaceWarns = surfaceFacts(dir, rec.Row, reqs, msgs)
	res.Warnings = append(res.Warnings, surfaceWarns...)
	paths := []string{abs, escapedPath(abs)}
	var bodies [][]byte
	var ctxs []fakeapi.Context
	for _, q := range reqs {
		api, ok := fakeapi.Lookup(q.API)
		if !ok || len(q.Body) == 0 || filepath.Base(q.Path) == "count_tokens" {
			res.Other = append(res.Other, fmt.Sprintf("%s %s %d", q.Method, q.Path, q.Status))
			continue
		}
		ctx, err := api.Context(q.Body)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s request %d: %v", evidence.RequestsName, q.Seq, err))
			continue
		}
		f := RequestFacts{Seq: q.Seq, Time: q.Time, API: q.API, Chars: ctx.Chars(), Tokens: tokens.Count(ctx.Text()), Bytes: len(q.Body), Tools: []string{}}
		for _, s := range ctx {
			if s.Kind == fakeapi.KindToolDefinition {
				f.Tools = append(f.Tools, s.Name)
			}
		}
		for _, reply := range lab.Replies() {
			f.Placements = append(f.Placements, locate(ctx, reply, texts[reply])...)
		}
		res.Requests = append(res.Requests, f)
		bodies = append(bodies, q.Body)
		ctxs = append(ctxs, ctx)
	}
	if len(res.Requests) > 0 {
		// The main requests are those that offer tools; side requests
		// (titles, routing classifiers) offer none. First is the first
		// main request, and the reader reads the last one.
		first, last := mainRequests(res.Requests)
		res.First = &res.Requests[first]
		res.First.Parts = layout(ctxs[first])
		res.RequestKey = requestKey(bodies[first], paths)
		if res.ServerTexts != nil {
			res.Tools = locateTools(ctxs[first], res.ServerTexts.Tools, rec.Row.ServerName())
		} else {
			// Every request: a server connected after the first shows in
			// a later one only so, in a client that names its tools in a
			// text (budget's late server).
			for i := range res.Requests {
				res.Requests[i].NamesLabTool = namesLabTool(ctxs[i], rec.Row.ServerName())
			}
			if rec.Row.Surface != "" {
				// The lab's surface tools, each description located as a
				// server's is: what a client trims of the white space
				// around one (lab.NamePadded), what it keeps of each.
				res.Tools = locateTools(ctxs[first], serverTexts(msgs).Tools, rec.Row.ServerName())
			}
		}
		if len(rec.Row.Servers) > 0 {
			var warns []string
			res.Servers, warns = locateServers(rec.Row, ctxs[first])
			res.Warnings = append(res.Warnings, warns...)
		}
		res.Reader = fakeapi.Read(ctxs[last], rec.Row.Prompt)
		sv, err := servedBy(msgs, rec.Row.Instr, rec.Row.SessionTexts)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("the texts of each session: %v", err))
		}
		var warns []string
		res.Session, warns = session(res.Requests, bodies, ctxs, sv)
		res.Warnings = append(res.Warnings, warns...)
	} else {
		res.Reader = fakeapi.Answer{Last: -1}
		res.Warnings = append(res.Warnings, "no model request was recorded")
	}

	if res.ServerTexts != nil {
		var lastModel time.Time
		if n := len(res.Requests); n > 0 {
			lastModel = res.Requests[n-1].Time
		}
		why, warning := serverFailure(msgs, lastModel)
		if why != "" && heldUnanswered(rec.Row, msgs) {
			// The proxy was holding the reply on purpose: a client that
			// did not wait for it is what the row measures.
			warning, why = why+"; the proxy was holding its first reply (init_delay "+rec.Row.InitDelay+"), so not counted as a failure", ""
		}
		switch {
		case why != "" && res.Status == StatusOK:
			res.Status, res.Reason = StatusFailed, why
		case why != "": // the client failed too (timed out waiting): say why the server did
			res.Reason += "; " + why
		}
		if warning != "" {
			res.Warnings = append(res.Warnings, warning)
		}
	}
	res.Warnings = append(res.Warnings, labWarns...)
	res.Handshake = handshake(msgs)
	if res.Transport = rec.Transport; rec.Transport == matrix.TransportHTTP {
		res.HTTP = httpFacts(msgs)
		res.Status, res.Reason = res.HTTP.judge(res.Status, res.Reason)
	}
	if rec.Netns {
		var warns []string
		res.Netns = true
		res.OutsideNames, res.VendorHosts, warns = outsideNames(dir)
		res.Warnings = append(res.Warnings, warns...)
	}

	if c, err := clients(rec.Client.String()); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	} else {
		res.Observation = c.Observe(rec.Evidence(dir))
		res.ModelAnswer = res.Observation.Answer
		var blocks fakeapi.Context
		for _, b := range res.Observation.Instructions {
			blocks = append(blocks, fakeapi.Segment{Kind: fakeapi.Kind("role " + b.Role), Path: b.Where, Text: b.Text})
		}
		for _, reply := range lab.Replies() {
			res.Transcript = append(res.Transcript, locate(blocks, reply, texts[reply])...)
		}
		res.Warnings = append(res.Warnings, res.Observation.Warnings...)
	}
	res.Timing = timing(rec, msgs, &res)
	notCalled(&res)
	return res, nil
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
