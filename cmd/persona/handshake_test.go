package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/instrlab/instrlab/cmd/persona/internal/coach"
	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A fresh database where the schema never ran (the seed's fresh clone): the
// handshake succeeds with no instructions, and the failure is reported.
func TestFreshDatabaseFailsOpen(t *testing.T) {
	for _, version := range []string{"", legacyVersion} {
		t.Run("version="+version, func(t *testing.T) {
			st := testStore(t, false)
			var rep reports
			cs := connectMemory(t, newServer(st, &live.Options{Report: rep.report}), version)
			if got := cs.InitializeResult().Instructions; got != "" {
				t.Errorf("instructions = %q, want none", got)
			}
			errs := rep.all()
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), "no such table") {
				t.Errorf("reported %v, want one missing-table error", errs)
			}
		})
	}
}

// Changing the persona changes what the next connect gets, over HTTP on one
// long-running server, in both handler modes and both eras; a session
// opened before the change keeps its text.
func TestPersonaChangeBetweenHTTPSessions(t *testing.T) {
	tests := []struct {
		name      string
		stateless bool
		version   string
	}{
		{"stateless discover", true, ""},
		{"stateless initialize", true, legacyVersion},
		{"stateful probe falls back", false, ""},
		{"stateful initialize", false, legacyVersion},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			st := testStore(t, true)
			url := serveHTTP(t, st, nil, tt.stateless)
			hard, soft := builtIn(t, "hardass"), builtIn(t, "supportive")

			first := connectHTTP(t, url, tt.version)
			if got := first.InitializeResult().Instructions; got != soft.Text {
				t.Fatalf("first session: instructions = %q, want the default %q", got, soft.Text)
			}
			if err := st.SetActive(ctx, "hardass"); err != nil {
				t.Fatal(err)
			}
			second := connectHTTP(t, url, tt.version)
			if got := second.InitializeResult().Instructions; got != hard.Text {
				t.Errorf("second session: instructions = %q, want %q", got, hard.Text)
			}
			if got := first.InitializeResult().Instructions; got != soft.Text {
				t.Errorf("first session after the change: instructions = %q, want it kept %q", got, soft.Text)
			}
			// The first session still works, and its tool answers in the
			// voice now active.
			res, err := first.CallTool(ctx, &mcp.CallToolParams{Name: "todays_focus"})
			if err != nil || res.IsError {
				t.Fatalf("todays_focus: %v %+v", err, res)
			}
			if got := res.Content[0].(*mcp.TextContent).Text; got != hard.Focus {
				t.Errorf("todays_focus = %q, want %q", got, hard.Focus)
			}
		})
	}
}

// The prompt carries the same text as the instructions: the guaranteed path
// for clients that ignore instructions. A database failure in the tool is a
// tool error, not a protocol error.
func TestPromptAndToolFollowPersona(t *testing.T) {
	ctx := context.Background()
	st := testStore(t, true)
	if err := st.SetActive(ctx, "hardass"); err != nil {
		t.Fatal(err)
	}
	cs := connectMemory(t, newServer(st, nil), "")
	hard := builtIn(t, "hardass")
	pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "coach"})
	if err != nil {
		t.Fatal(err)
	}
	if got := pr.Messages[0].Content.(*mcp.TextContent).Text; !strings.HasSuffix(got, hard.Text) {
		t.Errorf("coach prompt = %q, want it to carry %q", got, hard.Text)
	}

	broken := testStore(t, false)
	cs = connectMemory(t, newServer(broken, &live.Options{Report: func(live.Conn, error) {}}), "")
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "todays_focus"})
	if err != nil {
		t.Fatalf("todays_focus on a broken store: protocol error %v, want a tool error", err)
	}
	if !res.IsError {
		t.Errorf("todays_focus on a broken store: %+v, want IsError", res)
	}
}

// Building the server touches no file: resolution waits for a connect.
func TestBuildDoesNoIO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "untouched.db")
	st, err := coach.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	newServer(st, nil)
	httpHandler(newServer(st, nil), true)
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after building the servers, stat %s: %v, want it not to exist", path, err)
	}
}
