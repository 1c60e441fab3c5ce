package analyze

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/instrlab/instrlab/internal/client/clients"
	"github.com/instrlab/instrlab/internal/fakeapi"
	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/instrlab/instrlab/lab"
)

// TestTrimmedIsNotACut: Codex CLI 0.171.0 (under local-model, as run
// -call runs it) puts server-everything's instructions in its namespace's
// description without the line break they end with (testdata run,
// 2026-12-05). That read as "cut, 1,573 of 1,574, implied cap 1,573";
// it is the whole text, one character of white space trimmed, and
// implies no cap.
func TestTrimmedIsNotACut(t *testing.T) {
	res, err := Run(filepath.Join("testdata", "serverruns", "codex@0.171.0", "server-everything", "1"), clients.New)
	if err != nil {
		t.Fatal(err)
	}
	b := res.First.Best()
	if b == nil || !b.Full || b.Trimmed != 1 || b.Kept != 1573 || b.Kind != fakeapi.KindToolDefinition {
		t.Fatalf("placement %+v, want whole in a tool definition, 1 trimmed", b)
	}
	if s, ok := res.Sample(); !ok || s.Cut() {
		t.Errorf("sample %+v (%v): a trimmed text is no cut", s, ok)
	}
}

// TestMeasureWhiteSpace: white space a text starts or ends with, missing
// in the request, is trimmed and no cut, for instructions and for a tool
// description, in a definition and in a listing; anything else missing
// is still a cut.
func TestMeasureWhiteSpace(t *testing.T) {
	for _, tc := range []struct {
		name, text, seg string
		kept, trimmed   int
		full            bool
		suffix          string
	}{
		{"kept whole", "\nHello there, all of you. More.\n", "<i>\nHello there, all of you. More.\n</i>", 32, 0, true, ""},
		{"leading trimmed", "\nHello there, all of you. More.", "<i>Hello there, all of you. More.</i>", 30, 1, true, ""},
		{"trailing trimmed", "Hello there, all of you. More.\n\n", "<i>Hello there, all of you. More.</i>", 30, 2, true, ""},
		{"both trimmed", "  Hello there, all of you. More. ", "<i>Hello there, all of you. More.</i>", 30, 3, true, ""},
		{"trimmed, then cut", "\nHello there, all of you. More text.", "<i>Hello there, all of you. Mo…</i>", 27, 1, false, "…</i>"},
		{"cut before trailing space", "Hello there, all of you. More.\n", "<i>Hello there, all of you.</i>", 24, 0, false, "</i>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := locate(fakeapi.Context{{Kind: fakeapi.KindSystemMessage, Text: tc.seg}}, lab.ReplyInitialize, tc.text)
			if len(ps) != 1 {
				t.Fatalf("%d placements", len(ps))
			}
			p := ps[0]
			if p.Kept != tc.kept || p.Trimmed != tc.trimmed || p.Full != tc.full || (!tc.full && p.Suffix != tc.suffix) {
				t.Errorf("instructions: kept %d, trimmed %d, full %v, suffix %q; want %d, %d, %v, %q", p.Kept, p.Trimmed, p.Full, p.Suffix, tc.kept, tc.trimmed, tc.full, tc.suffix)
			}
			def, _ := json.Marshal(map[string]string{"name": "mcp__s__t", "description": tc.seg[3 : len(tc.seg)-4]})
			listing := "Tools:\n- \"mcp__s__t\": " + tc.seg[3:len(tc.seg)-4] + "\n"
			for _, ctx := range []fakeapi.Context{
				{{Kind: fakeapi.KindToolDefinition, Name: "mcp__s__t", Text: string(def)}},
				{{Kind: fakeapi.KindUserTurn, Text: listing}},
			} {
				f := locateTools(ctx, []NamedText{{Name: "t", Description: tc.text}}, "s")[0]
				kept, trimmed := f.Kept, f.Trimmed
				if ctx[0].Kind == fakeapi.KindUserTurn && tc.full && f.Trimmed > 0 {
					// The listing's own line break after the description may
					// read as the first of the line breaks it ended with.
					kept, trimmed = tc.kept, f.Kept+f.Trimmed-tc.kept
				}
				if !f.Found || kept != tc.kept || trimmed != tc.trimmed || f.Full != tc.full || (f.Lost != "") == tc.full {
					t.Errorf("description (%s): %+v; want kept %d, trimmed %d, full %v", ctx[0].Kind, f, tc.kept, tc.trimmed, tc.full)
				}
			}
		})
	}
}

// TestSurfaceRowTools: a surface row's run locates each of the lab's tools'
// descriptions as a server's: Cline CLI 3.0.65 removed the white space
// around name_padded's (testdata run of surface-names, 2026-12-05), kept
// the rest whole, and defined both of two names one of which starts the
// other.
//
// Gemini CLI 0.61.0 (the Gemini API's functionDeclarations, the same row)
// kept the padding: whole, nothing trimmed, behind its prefix mcp_lab_.
func TestSurfaceRowTools(t *testing.T) {
	for _, tc := range []struct {
		client, prefix string
		trimmed        int
	}{
		{"cline@3.0.65", "lab__", 6},
		{"gemini@0.61.0", "mcp_lab_", 0},
	} {
		res, err := Run(filepath.Join("testdata", "surfaceruns", tc.client, "surface-names", "1"), clients.New)
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]ToolFacts{}
		for _, f := range res.Tools {
			byName[f.Name] = f
		}
		if f := byName[labvocab.NamePadded]; !f.Full || f.Trimmed != tc.trimmed || f.Via != ViaDefinition || f.As != tc.prefix+labvocab.NamePadded {
			t.Errorf("%s: %s: %+v, want whole in its definition, %d trimmed", tc.client, labvocab.NamePadded, f, tc.trimmed)
		}
		for _, name := range []string{labvocab.NamePrefix, labvocab.NamePrefixed} {
			if f := byName[name]; !f.Full || f.Trimmed != 0 || f.As != tc.prefix+name {
				t.Errorf("%s: %s: %+v, want whole in its own definition", tc.client, name, f)
			}
		}
	}
}
