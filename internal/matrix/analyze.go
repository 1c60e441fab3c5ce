package matrix

import (
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/lab"
)

// Analyze derives a Result from the evidence in one run dir: the run
// record, the recorded API requests, the lab's message log and the client's
// own files. Unreadable evidence becomes warnings, never a silent gap.
func Analyze(dir string) (Result, error) {
	rec, err := ReadRecord(dir)
	if err != nil {
		return Result{}, err
	}
	abs, _ := filepath.Abs(dir)
	res := Result{Client: rec.Client.String(), Row: rec.Row.Name, Label: rec.Row.Label, Repeat: rec.Repeat, Dir: dir,
		Status: rec.Status, Reason: rec.Reason, Live: rec.Live, Instr: rec.Row.Instr, Era: rec.Row.Era,
		NoDelta: rec.Row.NoDelta, ClientMS: rec.ClientMS, Requests: []RequestFacts{}}

	texts := map[string]string{}
	if in, err := lab.ParseInstructions(rec.Row.Instr); err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: row instr: %v", RecordFile, err))
	} else if in.Present() {
		for _, era := range []string{lab.EraInitialize, lab.EraDiscover} {
			t, err := in.For(era)
			if err != nil {
				res.Warnings = append(res.Warnings, fmt.Sprintf("generating the %s text: %v", era, err))
				continue
			}
			texts[era] = t.Text
		}
		res.Sent = utf8.RuneCountInString(texts[lab.EraInitialize])
	}

	reqs, warns, err := fakeapi.ReadRequests(filepath.Join(dir, APIDir, fakeapi.RequestsFile))
	res.Warnings = append(res.Warnings, warns...)
	if err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	paths := []string{abs, escapedPath(abs)}
	var last fakeapi.Context
	for _, q := range reqs {
		api, ok := fakeapi.Lookup(q.API)
		if !ok || len(q.Body) == 0 || filepath.Base(q.Path) == "count_tokens" {
			res.Other = append(res.Other, fmt.Sprintf("%s %s %d", q.Method, q.Path, q.Status))
			continue
		}
		ctx, err := api.Context(q.Body)
		if err != nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s request %d: %v", fakeapi.RequestsFile, q.Seq, err))
			continue
		}
		f := RequestFacts{Seq: q.Seq, Time: q.Time, API: q.API, Chars: ctx.Chars(), Tokens: fakeapi.EstimateTokens(ctx.Text()), Bytes: len(q.Body), Tools: []string{}}
		for _, s := range ctx {
			if s.Kind == fakeapi.KindToolDefinition {
				f.Tools = append(f.Tools, s.Name)
			}
		}
		for _, era := range []string{lab.EraInitialize, lab.EraDiscover} {
			f.Placements = append(f.Placements, locate(ctx, era, texts[era])...)
		}
		if len(res.Requests) == 0 {
			res.RequestKey = requestKey(q.Body, paths)
		}
		res.Requests = append(res.Requests, f)
		last = ctx
	}
	if len(res.Requests) > 0 {
		res.First = &res.Requests[0]
		res.Reader = fakeapi.Read(last, rec.Row.Prompt)
	} else {
		res.Reader = fakeapi.Answer{Last: -1}
		res.Warnings = append(res.Warnings, "no model request was recorded")
	}

	msgs, warns, err := ReadLabLog(filepath.Join(dir, LabLogFile))
	res.Warnings = append(res.Warnings, warns...)
	if err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	res.Handshake = handshake(msgs)

	if c, err := clients.New(rec.Client.String()); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	} else {
		res.Observation = c.Observe(&client.Run{Dir: dir, Server: client.Server{Name: ServerName}})
		res.ModelAnswer = res.Observation.Answer
		res.Warnings = append(res.Warnings, res.Observation.Warnings...)
	}
	return res, nil
}
