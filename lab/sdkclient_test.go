package lab

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectStdio connects a go-sdk client of opts, with session options
// sopts, to l served over in-memory pipes by the lab's own stdio
// transport. end closes the session, waits for the server to stop at the
// end of its input and returns what ServeStdio returned; the test's
// cleanup calls it if the test did not.
func connectStdio(t *testing.T, l *Lab, opts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) (cs *mcp.ClientSession, end func() error, err error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.ServeStdio(ctx, inR, outW); outW.Close() }()
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, opts)
	cs, err = c.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, sopts)
	end = sync.OnceValue(func() error {
		if cs != nil {
			cs.Close()
		}
		inW.Close()
		outR.Close()
		err := <-done
		cancel()
		return err
	})
	t.Cleanup(func() { end() })
	return cs, end, err
}

// labFromArgs makes the lab that "instrlab serve lab" makes of args, its
// message log at log.
func labFromArgs(t *testing.T, log string, args ...string) *Lab {
	t.Helper()
	a, err := ParseArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := a.Config()
	if err != nil {
		t.Fatal(err)
	}
	if log != "" {
		if cfg.Log, err = OpenMessageLog(log); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cfg.Log.Close() })
	}
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// texts are the texts of a lab of the instructions instr in era, made
// apart from any command line.
func texts(t *testing.T, instr string, era Mode) (initialize, discover Text) {
	t.Helper()
	in, err := ParseInstructions(instr)
	if err != nil {
		t.Fatal(err)
	}
	l, err := New(Config{Instructions: in, Eras: era})
	if err != nil {
		t.Fatal(err)
	}
	return l.Texts()
}

// readLog parses the message log at path.
func readLog(t *testing.T, path string) []Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseLog(t, data)
}

// recvMethods lists the methods of the requests and notifications received.
func recvMethods(entries []Entry) []string {
	var ms []string
	for _, e := range entries {
		if e.Dir == Recv && e.Method != "" {
			ms = append(ms, e.Method)
		}
	}
	return ms
}

// TestGoSDKClientStdio runs the official go-sdk client, which probes
// server/discover and falls back to initialize, against the lab over its
// own stdio transport.
func TestGoSDKClientStdio(t *testing.T) {
	for _, tc := range []struct {
		era         Mode
		instr       string
		forceLegacy bool
		wantEra     Reply // which text the client must hold: initialize or discover
		wantMethods []string
		wantErr     string
	}{
		{era: ModeLegacy, instr: "ascii:1000", wantEra: ReplyInitialize,
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized", "tools/list"}},
		{era: ModeBoth, instr: "ascii:1000", wantEra: ReplyDiscover,
			wantMethods: []string{"server/discover", "tools/list"}},
		{era: ModeBoth, instr: "japanese:3000", forceLegacy: true, wantEra: ReplyInitialize,
			wantMethods: []string{"initialize", "notifications/initialized", "tools/list"}},
		{era: ModeModern, instr: "ascii:5000", wantEra: ReplyDiscover,
			wantMethods: []string{"server/discover", "tools/list"}},
		{era: ModeModern, instr: "ascii:5000", forceLegacy: true, wantErr: "unsupported protocol version"},
		{era: ModeLegacy, instr: "none", wantEra: "",
			wantMethods: []string{"server/discover", "initialize", "notifications/initialized", "tools/list"}},
	} {
		name := fmt.Sprintf("%s/%s/legacyclient=%v", tc.era, tc.instr, tc.forceLegacy)
		t.Run(name, func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "log.jsonl")
			l := labFromArgs(t, logPath, "-eras", string(tc.era), "-instr", tc.instr)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			opts := &mcp.ClientSessionOptions{}
			if tc.forceLegacy {
				opts.ProtocolVersion = "2025-11-25"
			}
			cs, end, err := connectStdio(t, l, nil, opts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Connect error = %v, want one containing %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, tool := range tools.Tools {
				names = append(names, tool.Name)
			}
			if diff := cmp.Diff([]string{"lab_ping", "list_bins", "lookup_part"}, names); diff != "" {
				t.Errorf("tools mismatch (-want +got):\n%s", diff)
			}
			got := cs.InitializeResult().Instructions
			if err := end(); err != nil {
				t.Errorf("serving: %v", err)
			}

			initText, discoverText := texts(t, tc.instr, tc.era)
			want := map[Reply]string{ReplyInitialize: initText.Text, ReplyDiscover: discoverText.Text, "": ""}[tc.wantEra]
			if got != want {
				t.Errorf("client holds instructions %.80q…, want the %s text %.80q…", got, tc.wantEra, want)
			}
			if tc.wantEra == ReplyDiscover && initText.Begin != "" && strings.Contains(got, initText.Begin) {
				t.Errorf("the discover text carries the initialize codeword %s", initText.Begin)
			}
			if diff := cmp.Diff(tc.wantMethods, recvMethods(readLog(t, logPath))); diff != "" {
				t.Errorf("methods the server saw mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestGoSDKClientHTTP runs the go-sdk client against the lab's HTTP
// handler: it holds the text of the era, and the log has an answer to
// every request.
func TestGoSDKClientHTTP(t *testing.T) {
	for _, tc := range []struct {
		era     Mode
		wantEra Reply
	}{
		{ModeLegacy, ReplyInitialize},
		{ModeBoth, ReplyDiscover},
		{ModeModern, ReplyDiscover},
	} {
		t.Run(string(tc.era), func(t *testing.T) {
			logPath := filepath.Join(t.TempDir(), "log.jsonl")
			srv := httptest.NewServer(labFromArgs(t, logPath, "-eras", string(tc.era), "-instr", "ascii:2048").Handler())
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			client := mcp.NewClient(&mcp.Implementation{Name: "instrlab-test", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lab_ping"}); err != nil {
				t.Fatal(err)
			}
			got := cs.InitializeResult().Instructions
			cs.Close()
			initText, discoverText := texts(t, "ascii:2048", tc.era)
			want := map[Reply]string{ReplyInitialize: initText.Text, ReplyDiscover: discoverText.Text}[tc.wantEra]
			if got != want {
				t.Errorf("client holds %.60q…, want the %s text %.60q…", got, tc.wantEra, want)
			}
			entries := readLog(t, logPath)
			methods := recvMethods(entries)
			if len(methods) == 0 || methods[0] != "server/discover" {
				t.Errorf("methods the server saw = %v, want server/discover first", methods)
			}
			sawInit := strings.Contains(strings.Join(methods, " "), "initialize")
			if sawInit != (tc.era == ModeLegacy) {
				t.Errorf("initialize seen = %v for era %s; methods %v", sawInit, tc.era, methods)
			}
			// Every request got its answer in the log.
			sent, reqs := 0, 0
			for _, e := range entries {
				switch {
				case e.Dir == Send && (e.Kind == KindResponse || e.Kind == KindError):
					sent++
				case e.Dir == Recv && e.Kind == KindRequest:
					reqs++
				}
			}
			if sent != reqs {
				t.Errorf("log has %d requests and %d responses", reqs, sent)
			}
		})
	}
}

// TestInstrFileUnchanged: -instr-file gives the client the file's text
// unchanged, in either era.
func TestInstrFileUnchanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "instr.md")
	own := "# My server\n\nUse the tools wisely. ✓ — unchanged, with \"quotes\" and trailing space \n"
	if err := os.WriteFile(path, []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, era := range []Mode{ModeLegacy, ModeBoth} {
		cs, _, err := connectStdio(t, labFromArgs(t, "", "-eras", string(era), "-instr-file", path), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := cs.InitializeResult().Instructions; got != own {
			t.Errorf("era %s: instructions %q, want the file unchanged %q", era, got, own)
		}
	}
}
