package report

import (
	"fmt"
	"html/template"
	"sync"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// A bar is one client's line of the page's summary: characters sent
// against characters kept in the first model request, the cap drawn.
type bar struct {
	Label   string // the row, on its first client's line
	Row     string // the row name, for the anchor of its details
	Client  string
	RunLink string
	Failed  string
	Link    string // the recorded requests
	Sent    int
	Kept    int
	Full    bool
	Cap     string // "4,096 characters", "≥ 1,000 characters", "—"
	Arrived string
	Where   string
	Later   string // where the text arrived when not in the first request
	// KeptW and CapX are the bar's kept width and cap position, of
	// barWidth; CapX < 0 when no cap shows.
	KeptW, CapX float64
	Alt         string
}

const barWidth = 320.0

func (g *grid) bars() []bar {
	var out []bar
	for _, name := range g.rows {
		label := g.labels[name]
		for _, c := range g.clients {
			s := g.at(c, name)
			if s == nil {
				continue
			}
			r := s.results[0]
			b := bar{Label: label, Row: name, Client: c, RunLink: g.link(r, fileRecord), Link: g.link(r, fileRequests), Sent: r.Sent, CapX: -1}
			label = ""
			if f := s.failed(); f != "" {
				b.Failed = untrusted.HTMLLine(f) // quotes the server's stderr
				out = append(out, b)
				continue
			}
			b.Arrived, b.Where, b.Cap = s.join(arrivedText), s.join(whereText), s.join(func(r *analyze.Result) string { return capWithUnit(r, s.unit) })
			if p := r.First.Best(); p != nil {
				b.Kept, b.Full = p.Kept, p.Full
			} else if q := laterArrival(r); q != nil {
				b.Later = fmt.Sprintf("request %d: %s of %s characters, %s", q.Seq, table.Num(q.Best().Kept), table.Num(r.Sent), q.Best().Kind)
			}
			if r.Sent > 0 {
				b.KeptW = barWidth * float64(b.Kept) / float64(r.Sent)
				if p := r.First.Best(); p != nil && !p.Full {
					b.CapX = b.KeptW
				}
			}
			b.Alt = barAlt(c, r, b)
			out = append(out, b)
		}
	}
	return out
}

func barAlt(client string, r *analyze.Result, b bar) string {
	switch {
	case r.Sent == 0:
		return client + ": the server sent no text"
	case b.Later != "":
		return fmt.Sprintf("%s: none of %s characters in the first request; %s", client, table.Num(r.Sent), b.Later)
	case b.Full:
		return fmt.Sprintf("%s: all %s characters kept; cap %s", client, table.Num(r.Sent), b.Cap)
	}
	return fmt.Sprintf("%s: %s of %s characters kept, %s lost; cap %s", client, table.Num(b.Kept), table.Num(r.Sent), table.Num(r.Sent-b.Kept), b.Cap)
}

var summaryTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("summary").Funcs(pageFuncs).Parse(summarySource))
})

const summarySource = `<p class="lead">Per row, one bar per client: the server's text as sent (the whole bar), the part that reached the first model request (solid), the part lost (hatched), and where the client cut it (the cap line). Lengths in characters (Unicode code points).</p>
<table class="summary">
<colgroup><col style="width:20%"><col style="width:14%"><col style="width:25%"><col style="width:14%"><col style="width:14%"><col style="width:13%"></colgroup>
<thead><tr><th scope="col">row</th><th scope="col">client</th><th scope="col">characters kept of sent</th><th scope="col">kept</th><th scope="col">cap</th><th scope="col">where (first request)</th></tr></thead>
<tbody>
{{range .}}<tr{{if .Label}} class="first"{{end}}>
<th scope="row">{{if .Label}}<a href="#row-{{.Row}}">{{.Label}}</a>{{end}}</th>
<td class="client"><a href="{{.RunLink}}">{{.Client}}</a></td>
{{if .Failed}}<td colspan="4" class="failed"><a href="{{.RunLink}}">⚠ {{.Failed}}</a></td>
{{else if eq .Sent 0}}<td class="bar"><span class="none">no text sent</span></td><td>—</td><td>—</td><td><a href="{{.Link}}">—</a></td>
{{else}}<td class="bar"><a href="{{.Link}}"><svg role="img" viewBox="-2 0 332 26" width="100%" height="26" preserveAspectRatio="xMinYMid meet"><title>{{.Alt}}</title><rect x="0" y="6" width="{{barW}}" height="14" class="lost"/><rect x="0" y="6" width="{{f .KeptW}}" height="14" class="kept"/>{{if ge .CapX 0.0}}<line x1="{{f .CapX}}" x2="{{f .CapX}}" y1="1" y2="25" class="cap"/>{{else}}<path d="M{{barW}} 3 l6 10 l-6 10" class="capopen"/>{{end}}</svg></a></td>
<td class="num"><a href="{{.Link}}">{{if .Later}}0 of {{num .Sent}}<br><small>{{.Later}}</small>{{else}}{{num .Kept}} of {{num .Sent}}{{if .Full}} ✓{{else}} ✂{{end}}{{end}}</a></td>
<td class="num"><a href="{{.Link}}">{{.Cap}}</a></td><td><a href="{{.Link}}">{{.Where}}</a></td>
{{end}}</tr>
{{end}}</tbody>
</table>`

func (r *Report) summarySection() (Section, error) {
	body, err := render(summaryTemplate(), r.g.bars())
	return Section{ID: "summary", Title: "What reached the model", Body: body}, err
}
