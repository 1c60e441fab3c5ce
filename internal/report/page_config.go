package report

import (
	"html/template"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
	"github.com/instrlab/instrlab/lab"
)

// A config is one row's part of the page: the text with every
// client's cut, then per client the first request's map and the
// handshake.
type config struct {
	Row, Label string
	Texts      []cutText
	Clients    []clientView
}

type clientView struct {
	Client       string
	Failed       string
	RunLink      string
	RequestsLink string
	LabLink      string
	Map          requestMap
	Seq          sequence
	Warnings     []string
	run          *analyze.Result
}

// rowText is the text the lab sent in run r in reply.
func rowText(r *analyze.Result, reply lab.Reply) (lab.Text, error) {
	in, err := lab.ParseInstructions(r.Instr)
	if err != nil {
		return lab.Text{}, err
	}
	return in.For(reply)
}

func (g *grid) configs() []config {
	var out []config
	for _, name := range g.rows {
		c := config{Row: name, Label: g.labels[name]}
		cutsByEra := map[lab.Reply][]cut{}
		var eras []lab.Reply
		var any *analyze.Result
		for _, cl := range g.clients {
			s := g.at(cl, name)
			if s == nil {
				continue
			}
			r := s.results[0]
			any = r
			v := clientView{Client: cl, Failed: untrusted.HTMLLine(s.failed()), RunLink: g.link(r, fileRecord), RequestsLink: g.link(r, fileRequests), LabLink: g.link(r, fileLabLog), run: r}
			for _, x := range s.results {
				v.Warnings = append(v.Warnings, x.Warnings...)
			}
			if len(v.Warnings) > 3 {
				v.Warnings = append(v.Warnings[:3], strconv.Itoa(len(v.Warnings)-3)+" more")
			}
			c.Clients = append(c.Clients, v)
			if r.Sent == 0 || v.Failed != "" {
				continue
			}
			era, at := lab.ReplyInitialize, 0
			b := r.First.Best()
			if b == nil {
				if q := laterArrival(r); q != nil {
					b = q.Best()
				}
			}
			if b != nil {
				era, at = b.Reply, b.Kept
			}
			if !slices.Contains(eras, era) {
				eras = append(eras, era)
			}
			cutsByEra[era] = append(cutsByEra[era], cut{client: cl, at: at})
		}
		for _, era := range eras {
			t, err := rowText(any, era)
			if err != nil {
				continue
			}
			c.Texts = append(c.Texts, drawCuts(t, cutsByEra[era]))
		}
		out = append(out, c)
	}
	// The maps and diagrams read evidence files: one run's at a time on
	// each CPU.
	var views []*clientView
	for i := range out {
		for j := range out[i].Clients {
			views = append(views, &out[i].Clients[j])
		}
	}
	work := make(chan *clientView)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(views)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range work {
				v.Map, v.Seq = firstRequestMap(v.run), handshakeSequence(v.run)
			}
		}()
	}
	for _, v := range views {
		work <- v
	}
	close(work)
	wg.Wait()
	return out
}

var configTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("config").Funcs(pageFuncs).Parse(configSource))
})

func (r *Report) configSections() (Section, error) {
	body, err := render(configTemplate(), r.g.configs())
	return Section{ID: "rows", Title: "Each row", Body: body}, err
}

var pageFuncs = template.FuncMap{
	"num":  table.Num,
	"f":    func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) },
	"barW": func() string { return strconv.FormatFloat(barWidth, 'f', 0, 64) },
	"part": partName,
	"add":  func(a, b int) int { return a + b },
	"lane": func(i int) int { return laneX[i] },
	"half": func(x int) int { return x / 2 },
}
