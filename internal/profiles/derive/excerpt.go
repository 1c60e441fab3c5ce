package derive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/matrix"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
)

// Evidence is what derive reads from a run beyond its Result: the row of
// its record, a segment of a recorded request, and the model a request
// named. Dirs reads the run directories; an Excerpt what was kept of them.
type Evidence interface {
	Row(dir string) (matrix.Row, error)
	Segment(dir string, seq int, path string) (string, error)
	Model(dir string, seq int) (string, error)
}

// Dirs reads evidence from the run directories themselves.
type Dirs struct{}

// Row is the resolved row of the run's record.
func (Dirs) Row(dir string) (matrix.Row, error) {
	rec, err := analyze.ReadRecord(dir)
	return rec.Row, err
}

// Segment is one text of a recorded request (analyze.SegmentText).
func (Dirs) Segment(dir string, seq int, path string) (string, error) {
	return analyze.SegmentText(dir, seq, path)
}

// Model is the model a recorded request named: the body's "model", or,
// for the Gemini API, the name in the path (/v1beta/models/NAME:...).
func (Dirs) Model(dir string, seq int) (string, error) {
	file := evidence.RunDir(dir).Requests()
	reqs, _, err := fakeapi.ReadRequests(file)
	if err != nil {
		return "", err
	}
	for _, q := range reqs {
		if q.Seq != seq {
			continue
		}
		var b struct {
			Model string `json:"model"`
		}
		if json.Unmarshal(q.Body, &b) == nil && b.Model != "" {
			return b.Model, nil
		}
		if _, rest, ok := strings.Cut(q.Path, "/models/"); ok {
			name, _, _ := strings.Cut(rest, ":")
			return name, nil
		}
		return "", nil
	}
	return "", fmt.Errorf("%s: no request %d", file, seq)
}

// An Excerpt is the part of a run's evidence that derive read for one
// client version: its results and, per run, the row, the request segments
// and the models read. Derive on an excerpt gives the profile derive on
// the run gave, so a built-in profile ships with the excerpt it came from
// (internal/profiles/data/evidence) and a test derives it again. Run
// directories are named client@version/row/repeat.
type Excerpt struct {
	// Command made the run; Note says what the excerpt keeps.
	Command  string                `json:"command,omitempty"`
	Note     string                `json:"note"`
	Results  []analyze.Result      `json:"results"`
	Rows     map[string]matrix.Row `json:"rows"`
	Segments map[string]string     `json:"segments"`
	Models   map[string]string     `json:"models"`
}

// MaxExcerpt is the most ReadExcerpt and ReadAnnex read of a file: the
// largest committed excerpt (Claude Code 2.1.332's) is 4.7 MB.
const MaxExcerpt = 64 << 20

// ReadExcerpt reads an excerpt file: at most MaxExcerpt bytes of it,
// giving up when ctx is done (a FIFO nobody writes).
func ReadExcerpt(ctx context.Context, name string) (*Excerpt, error) {
	b, err := cli.ReadFile(ctx, name, MaxExcerpt)
	if err != nil {
		return nil, fmt.Errorf("reading evidence excerpt: %w", err)
	}
	var x Excerpt
	if err := json.Unmarshal(b, &x); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &x, nil
}

// Encode is the excerpt as it is written to a file.
func (x *Excerpt) Encode() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(x); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Row implements Evidence.
func (x *Excerpt) Row(dir string) (matrix.Row, error) {
	r, ok := x.Rows[dir]
	if !ok {
		return r, fmt.Errorf("evidence excerpt: no row for %s", dir)
	}
	return r, nil
}

// Segment implements Evidence.
func (x *Excerpt) Segment(dir string, seq int, path string) (string, error) {
	s, ok := x.Segments[segmentKey(dir, seq, path)]
	if !ok {
		return "", fmt.Errorf("evidence excerpt: no segment %s of request %d of %s", path, seq, dir)
	}
	return s, nil
}

// Model implements Evidence.
func (x *Excerpt) Model(dir string, seq int) (string, error) {
	m, ok := x.Models[modelKey(dir, seq)]
	if !ok {
		return "", fmt.Errorf("evidence excerpt: no model of request %d of %s", seq, dir)
	}
	return m, nil
}

func segmentKey(dir string, seq int, path string) string {
	return dir + " " + strconv.Itoa(seq) + " " + path
}

func modelKey(dir string, seq int) string { return dir + " " + strconv.Itoa(seq) }

// runName is a run directory's name in an excerpt: its last three
// elements, client@version/row/repeat.
func runName(dir string) string {
	parts := strings.Split(filepath.ToSlash(dir), "/")
	return strings.Join(parts[max(0, len(parts)-3):], "/")
}

// recorder reads through ev and keeps what it read in x, under the run's
// excerpt name.
type recorder struct {
	ev Evidence
	x  *Excerpt
}

func newRecorder(ev Evidence) *recorder {
	return &recorder{ev: ev, x: &Excerpt{
		Note:     "What instrlab's profile derivation read of the run: the results of the runs that finished, each run's row, and the request segments and models it read again. The full evidence (recorded requests, message logs, client logs) is not committed.",
		Rows:     map[string]matrix.Row{},
		Segments: map[string]string{},
		Models:   map[string]string{},
	}}
}

func (r *recorder) Row(dir string) (matrix.Row, error) {
	row, err := r.ev.Row(dir)
	if err == nil {
		r.x.Rows[runName(dir)] = row
	}
	return row, err
}

func (r *recorder) Segment(dir string, seq int, path string) (string, error) {
	s, err := r.ev.Segment(dir, seq, path)
	if err == nil {
		r.x.Segments[segmentKey(runName(dir), seq, path)] = s
	}
	return s, err
}

func (r *recorder) Model(dir string, seq int) (string, error) {
	m, err := r.ev.Model(dir, seq)
	if err == nil {
		r.x.Models[modelKey(runName(dir), seq)] = m
	}
	return m, err
}

// layer joins the finished runs of an earlier excerpt x before the run's
// (results), leaving out the earlier runs of a row and arm the run made
// again, and reads each from where it came: x, or ev.
func layer(x *Excerpt, results []analyze.Result, ev Evidence) ([]analyze.Result, Evidence) {
	again := map[string]bool{}
	for _, r := range results {
		again[runName(r.Dir)] = true
	}
	l := layered{x: x, ev: ev, fromX: map[string]bool{}}
	var out []analyze.Result
	for _, r := range x.Results {
		if (r.Status != "ok" && !measuresFailure(x.Rows[r.Dir], r)) || again[r.Dir] {
			continue // a failed run is evidence only of a failure on purpose (failedOnPurpose)
		}
		l.fromX[r.Dir] = true
		out = append(out, r)
	}
	return append(out, results...), l
}

// layered reads the runs of an earlier excerpt from it, the others from ev.
type layered struct {
	x     *Excerpt
	ev    Evidence
	fromX map[string]bool
}

func (l layered) Row(dir string) (matrix.Row, error) {
	if l.fromX[dir] {
		return l.x.Row(dir)
	}
	return l.ev.Row(dir)
}

func (l layered) Segment(dir string, seq int, path string) (string, error) {
	if l.fromX[dir] {
		return l.x.Segment(dir, seq, path)
	}
	return l.ev.Segment(dir, seq, path)
}

func (l layered) Model(dir string, seq int) (string, error) {
	if l.fromX[dir] {
		return l.x.Model(dir, seq)
	}
	return l.ev.Model(dir, seq)
}
