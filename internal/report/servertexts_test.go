package report

import (
	"strings"
	"testing"

	"github.com/instrlab/instrlab/internal/fingerprint"
	"github.com/instrlab/instrlab/internal/matrix/analyze"
	"github.com/instrlab/instrlab/lab"
)

// TestServerNotes: run's summary and tables say what the runs of a user's
// server examined, by length and digest, as check does (issue 28: run
// measured a 1,233-character text, check a 2,904-character one, and
// nothing said they examined different servers); runs that saw different
// texts are named with each.
func TestServerNotes(t *testing.T) {
	texts := func(instr string) *analyze.ServerTexts {
		return &analyze.ServerTexts{Prints: map[lab.Reply]fingerprint.Text{lab.ReplyInitialize: fingerprint.Of(instr)}}
	}
	start := &analyze.ServerStart{Dir: "/home/me/proj", Env: []string{"HOME", "PATH"}}
	same := []analyze.Result{
		{Client: "claude-code@2.1.332", Status: "ok", Server: "notes", ServerTexts: texts("Use search."), ServerStart: start},
		{Client: "codex@0.171.0", Status: "ok", Server: "notes", ServerTexts: texts("Use search."), ServerStart: start},
	}
	got := strings.Join(serverNotes(same), "\n")
	want := "Server notes as the runs saw it: initialize instructions 11 characters, sha256 " + fingerprint.Of("Use search.").SHA256 + "; started in /home/me/proj with 2 variables (their names in run.json)."
	if !strings.HasPrefix(got, want) {
		t.Errorf("notes\n%s\nwant a start of\n%s", got, want)
	}
	differ := append(same[:1:1], analyze.Result{Client: "codex@0.171.0", Status: "ok", Server: "notes", ServerTexts: texts("Use search. Keyed.")})
	got = strings.Join(serverNotes(differ), "\n")
	for _, w := range []string{"DIFFERENT texts in different runs", "11 characters", "(claude-code@2.1.332)", "18 characters", "(codex@0.171.0)"} {
		if !strings.Contains(got, w) {
			t.Errorf("notes %q lack %q", got, w)
		}
	}
	rep := New(nil, differ, "")
	var b strings.Builder
	if err := rep.Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "DIFFERENT texts") {
		t.Errorf("the summary does not say the runs saw different texts:\n%s", b.String())
	}
	if notes := strings.Join(rep.Table.Notes, "\n"); !strings.Contains(notes, "DIFFERENT texts") {
		t.Errorf("the table's notes do not say it:\n%s", notes)
	}
}
