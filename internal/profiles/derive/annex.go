package derive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/profiles"
)

// An Annex is what a built-in profile takes from evidence other than its
// run: a client's documentation or an article's online runs. Each value
// names its evidence entry, and nothing in it is marked measured: a cap
// from documentation keeps Measured false. It is kept beside the run's
// excerpt as client@version.annex.json.
type Annex struct {
	Evidence []profiles.Evidence `json:"evidence"`
	// Startup, when set, gives the wait for a slow server and its
	// setting; its note is added to the run's.
	Startup *profiles.Startup `json:"startup,omitempty"`
	// ToolDescriptions, when set, replaces a cap the run did not
	// measure.
	ToolDescriptions *profiles.Limit `json:"tool_descriptions,omitempty"`
	// RenderNote is added to the rendering's note.
	RenderNote string `json:"render_note,omitempty"`
}

// ReadAnnex reads an annex file.
func ReadAnnex(ctx context.Context, name string) (*Annex, error) {
	b, err := cli.ReadFile(ctx, name, MaxExcerpt)
	if err != nil {
		return nil, fmt.Errorf("reading annex: %w", err)
	}
	var a Annex
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(a.Evidence) == 0 {
		return nil, fmt.Errorf("%s: an annex names its evidence", name)
	}
	return &a, nil
}

// Apply adds the annex to p: its evidence entries after the run's, its
// values where the run left them unmeasured. The documented startup wait
// goes into every variant too (the documentation names no arm or flag
// that changes it); it stays marked as documented, not measured.
func (a *Annex) Apply(p *profiles.Profile) error {
	p.Evidence = append(p.Evidence, a.Evidence...)
	if s := a.Startup; s != nil {
		documentWait(&p.Startup, &p.Unmeasured, s)
		for i := range p.Variants {
			documentWait(&p.Variants[i].Startup, &p.Variants[i].Unmeasured, s)
		}
	}
	if t := a.ToolDescriptions; t != nil {
		if p.ToolDescriptions.Measured || p.ToolDescriptions.Cap > 0 {
			return fmt.Errorf("profile %s: the run measured the tool description cap; the annex must not replace it", p.ID())
		}
		if t.Measured {
			return fmt.Errorf("profile %s: a tool description cap from an annex is not measured", p.ID())
		}
		p.ToolDescriptions = *t
	}
	if a.RenderNote != "" {
		p.Render.Note += " " + a.RenderNote
	}
	return p.Validate()
}

// documentWait sets the documented wait s on st, no longer unmeasured.
func documentWait(st *profiles.Startup, unmeasured *[]string, s *profiles.Startup) {
	st.TimeoutMs, st.Setting = s.TimeoutMs, s.Setting
	st.Note = strings.TrimSpace(s.Note + " " + st.Note)
	*unmeasured = slices.DeleteFunc(*unmeasured, func(u string) bool { return strings.HasPrefix(u, "how long it waits") })
}
