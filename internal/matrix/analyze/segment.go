package analyze

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/instrlab/instrlab/internal/evidence"
	"github.com/instrlab/instrlab/internal/fakeapi"
)

// SegmentText returns the text of the segment at path (a Placement's Path)
// in request seq of a run's recorded requests: the whole segment a
// placement was found in, for what surrounds the server's text. The run's
// own directory is written as /RUN (and its escaped form as -RUN), so that
// segments of two runs compare.
func SegmentText(dir string, seq int, path string) (string, error) {
	file := evidence.RunDir(dir).Requests()
	reqs, _, err := fakeapi.ReadRequests(file)
	if err != nil {
		return "", err
	}
	for _, q := range reqs {
		if q.Seq != seq {
			continue
		}
		api, ok := fakeapi.Lookup(q.API)
		if !ok {
			return "", fmt.Errorf("%s: request %d: unknown API %q", file, seq, q.API)
		}
		ctx, err := api.Context(q.Body)
		if err != nil {
			return "", fmt.Errorf("%s: request %d: %w", file, seq, err)
		}
		for _, s := range ctx {
			if s.Path == path {
				abs, _ := filepath.Abs(dir)
				return strings.NewReplacer(abs, "/RUN", escapedPath(abs), "-RUN").Replace(s.Text), nil
			}
		}
		return "", fmt.Errorf("%s: request %d has no segment %s", file, seq, path)
	}
	return "", fmt.Errorf("%s: no request %d", file, seq)
}
