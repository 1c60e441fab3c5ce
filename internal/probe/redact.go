package probe

import (
	"encoding/json"
	"net/url"

	"github.com/instrlab/instrlab/internal/redact"
)

// Redactor returns what hides t's credentials wherever they appear: every
// env and header value its config gives and every query value of its URL,
// whatever their names (the user gave them; a server may echo any of them),
// and the values of its credential arguments.
func (t Target) Redactor() *redact.Redactor { return Redactor(t) }

// Redactor is one redactor for the servers ts (Target.Redactor of each):
// run's, which writes the results of all its servers at once.
func Redactor(ts ...Target) *redact.Redactor {
	r := redact.New()
	for _, t := range ts {
		for _, v := range t.Env {
			r.AddSecret(v)
		}
		for _, v := range t.Headers {
			r.AddSecret(v)
		}
		for _, v := range t.Expanded {
			r.AddSecret(v)
		}
		if u, err := url.Parse(t.URL); err == nil {
			for _, vs := range u.Query() {
				for _, v := range vs {
					r.AddSecret(v)
				}
			}
		}
		r.AddArgs(t.Args)
	}
	return r
}

// Redacted returns t as it may be shown: credentials hidden in its
// command, arguments and URL (env and headers are never shown).
func (t Target) Redacted(r *redact.Redactor) Target {
	t.Command = r.String(t.Command)
	t.Args = r.Args(t.Args)
	t.URL = redact.URL(r.String(t.URL))
	t.Source = r.String(t.Source)
	return t
}

// Redactor is the target's redactor (Target.Redactor) that has also
// learned the credentials the server's own output shows by shape or name
// (redact.Redactor.Learn): its stderr, the details and errors of each
// era, its stray lines. What a server prints as "--token=VALUE" on its
// stderr is then hidden wherever VALUE appears.
func (res Result) Redactor() *redact.Redactor {
	r := res.Target.Redactor()
	for _, e := range []EraResult{res.Legacy, res.Modern} {
		for _, s := range append([]string{e.Stderr, e.Detail, e.ToolsError}, e.Stray...) {
			r.Learn(s)
		}
		if e.Error != nil {
			r.Learn(e.Error.Message)
		}
	}
	r.Learn(res.Survival.Detail)
	if f := res.Survival.Fallback; f != nil {
		r.Learn(f.Detail)
	}
	return r
}

// Redacted returns res with its target's credentials hidden everywhere:
// in the target, in every detail, error, stderr and stray line, and, as
// exact values or key shapes, in the instructions and tools the server
// sent, which a server may echo a credential into.
func (res Result) Redacted() Result { return res.RedactedBy(res.Redactor()) }

// RedactedBy is Redacted with r, res.Redactor made once by a caller that
// hides more of the same server's texts with it.
func (res Result) RedactedBy(r *redact.Redactor) Result {
	res.Target = res.Target.Redacted(r)
	res.Legacy = res.Legacy.redacted(r)
	res.Modern = res.Modern.redacted(r)
	res.Survival.Detail = r.String(res.Survival.Detail)
	if f := res.Survival.Fallback; f != nil {
		g := *f
		g.Detail = r.String(g.Detail)
		g.Instructions = prose(r, g.Instructions)
		res.Survival.Fallback = &g
	}
	return res
}

func (e EraResult) redacted(r *redact.Redactor) EraResult {
	e.Detail = r.String(e.Detail)
	if e.Error != nil {
		x := *e.Error
		x.Message = r.String(x.Message)
		if len(x.Data) > 0 {
			x.Data = redactJSON(r, x.Data)
		}
		e.Error = &x
	}
	e.ToolsError = r.String(e.ToolsError)
	e.Stderr = r.String(e.Stderr)
	e.Stray = redactAll(r, e.Stray)
	e.Problems = redactAll(r, e.Problems)
	e.Instructions = prose(r, e.Instructions)
	if e.ServerInfo != nil {
		si := *e.ServerInfo
		si.Name, si.Version = r.Prose(si.Name), r.Prose(si.Version)
		e.ServerInfo = &si
	}
	if e.Tools != nil {
		tools := make([]Tool, len(e.Tools))
		for i, t := range e.Tools {
			tools[i] = Tool{Name: r.Prose(t.Name), Description: r.Prose(t.Description), Meta: t.Meta}
		}
		e.Tools = tools
	}
	return e
}

func redactAll(r *redact.Redactor, ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = r.String(s)
	}
	return out
}

func prose(r *redact.Redactor, s *string) *string {
	if s == nil {
		return nil
	}
	v := r.Prose(*s)
	return &v
}

// redactJSON hides credentials in a raw JSON value; when hiding breaks the
// JSON, the value becomes a JSON string of the redacted text.
func redactJSON(r *redact.Redactor, data json.RawMessage) json.RawMessage {
	out := r.String(string(data))
	if json.Valid([]byte(out)) {
		return json.RawMessage(out)
	}
	b, _ := json.Marshal(out)
	return b
}
