package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite golden files with what the code does now")

// A pipeServer is a lab served over in-memory pipes, driven line by line.
type pipeServer struct {
	in     *io.PipeWriter
	lines  chan string
	exits  chan int
	done   chan error
	cancel context.CancelFunc
}

func startPipeServer(t *testing.T, cfg Config) *pipeServer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &pipeServer{in: inW, lines: make(chan string, 100), exits: make(chan int, 1), done: make(chan error, 1)}
	cfg.Exit = func(code int) { p.exits <- code }
	cfg.Stderr = io.Discard
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	go func() {
		p.done <- l.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 32<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		<-p.done
	})
	return p
}

// next waits up to d for one line from the server; "" means none came.
func (p *pipeServer) next(d time.Duration) string {
	select {
	case l := <-p.lines:
		return l
	case <-time.After(d):
		return ""
	}
}

// runScript drives the server with the client lines of a golden file and
// returns the transcript: each client line, then what the server did.
//
// A client line may start with a directive:
//
//	!silent  the line gets no reply (a notification, a response, or a hang)
//	!exit    the server exits on this line
func runScript(t *testing.T, cfg Config, client string) string {
	p := startPipeServer(t, cfg)
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(client, "\n"), "\n") {
		directive, msg := "", line
		if strings.HasPrefix(line, "!") {
			directive, msg, _ = strings.Cut(line, " ")
		}
		fmt.Fprintf(&b, "> %s\n", msg)
		io.WriteString(p.in, msg+"\n")
		switch directive {
		case "!silent":
			if got := p.next(100 * time.Millisecond); got != "" {
				fmt.Fprintf(&b, "< %s\n", got)
			}
		case "!exit":
			select {
			case code := <-p.exits:
				fmt.Fprintf(&b, "exit %d\n", code)
			case <-time.After(5 * time.Second):
				fmt.Fprintf(&b, "(no exit)\n")
			}
			return b.String()
		default:
			got := p.next(5 * time.Second)
			if got == "" {
				got = "(no reply)"
			}
			fmt.Fprintf(&b, "< %s\n", got)
		}
	}
	return b.String()
}

func TestHandshakeGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/handshake/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]string{}
			for _, f := range ar.Files {
				sections[f.Name] = string(f.Data)
			}
			cfg, err := configFromArgs(strings.Fields(sections["args"]))
			if err != nil {
				t.Fatal(err)
			}
			got := runScript(t, cfg, sections["client"])
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "server" {
						ar.Files[i].Data = []byte(got)
					}
				}
				if _, ok := sections["server"]; !ok {
					ar.Files = append(ar.Files, txtar.File{Name: "server", Data: []byte(got)})
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(sections["server"], got); diff != "" {
				t.Errorf("transcript mismatch (-want +got):\n%s\nrun go test ./lab -run TestHandshakeGolden -update to accept", diff)
			}
		})
	}
}

// configFromArgs reads the few serve-lab flags the golden files use.
func configFromArgs(args []string) (Config, error) {
	fs := flag.NewFlagSet("golden", flag.ContinueOnError)
	instr := fs.String("instr", "ascii:100", "")
	eras := fs.String("eras", string(ModeLegacy), "")
	unknown := fs.String("on-unknown", UnknownError, "")
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	in, err := ParseInstructions(*instr)
	if err != nil {
		return Config{}, err
	}
	m, err := ParseMode(*eras)
	if err != nil {
		return Config{}, err
	}
	return Config{Instructions: in, Eras: m, OnUnknown: *unknown}, nil
}

func TestMessageLogRecordsHandshake(t *testing.T) {
	var buf bytes.Buffer
	cfg := Config{Instructions: Instructions{Language: English, Length: 100}, Log: NewMessageLog(&buf)}
	runScript(t, cfg, probe+"\n"+initialize+"\n!silent "+initialized+"\n"+toolsList)
	entries := parseLog(t, buf.Bytes())
	var got []string
	for _, e := range entries {
		got = append(got, e.Dir+" "+e.Kind+" "+e.Method)
	}
	want := []string{
		"recv request server/discover", "send error server/discover",
		"recv request initialize", "send response initialize",
		"recv notification notifications/initialized",
		"recv request tools/list", "send response tools/list",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("log mismatch (-want +got):\n%s", diff)
	}
	if !bytes.Contains(entries[0].Meta, []byte(`"io.modelcontextprotocol/protocolVersion":"2026-07-28"`)) {
		t.Errorf("probe's _meta not logged: %s", entries[0].Meta)
	}
	for i := 1; i < len(entries); i++ {
		if entries[i].Time.Before(entries[i-1].Time) {
			t.Errorf("entry %d is older than entry %d", i, i-1)
		}
	}
}

// TestToolDescription: -tool-desc describes lookup_part with the
// generated text, which the log keeps whole in the tools/list reply.
func TestToolDescription(t *testing.T) {
	cfg, err := Args{Instr: "none", ToolDesc: "ascii:3000"}.Config()
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(cfg.ToolDescription); n != 3000 {
		t.Fatalf("tool description of %d characters, want 3000", n)
	}
	var buf bytes.Buffer
	cfg.Log = NewMessageLog(&buf)
	runScript(t, cfg, initialize+"\n!silent "+initialized+"\n"+toolsList)
	for _, e := range parseLog(t, buf.Bytes()) {
		if e.Method != "tools/list" || e.Dir != Send {
			continue
		}
		var reply struct {
			Result struct {
				Tools []struct{ Name, Description string }
			}
		}
		if err := json.Unmarshal(e.Body, &reply); err != nil {
			t.Fatalf("the tools/list reply is not kept whole: %v", err)
		}
		for _, tool := range reply.Result.Tools {
			if tool.Name == "lookup_part" {
				if tool.Description != cfg.ToolDescription {
					t.Errorf("lookup_part described as %.60q…, want the generated text", tool.Description)
				}
				return
			}
		}
	}
	t.Error("no tools/list reply with lookup_part in the log")
}

// Client lines shared by tests.
const (
	probe       = `{"jsonrpc":"2.0","id":"server-discover-probe-1","method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	toolsList   = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
)

// TestFail: -fail answers each method it names with error -32603 and
// leaves the others alone, in the era that serves them.
func TestFail(t *testing.T) {
	tests := []struct {
		name   string
		args   Args
		script string
		failed string // the method whose reply is the error
	}{
		{"tools/list", Args{Fail: "tools/list"}, initialize + "\n!silent " + initialized + "\n" + toolsList, "tools/list"},
		{"initialize", Args{Fail: "initialize"}, initialize, "initialize"},
		{"server/discover", Args{Eras: ModeBoth, Fail: "server/discover"}, probe + "\n" + initialize, "server/discover"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.args.Instr = "ascii:100"
			cfg, err := tt.args.Config()
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			cfg.Log = NewMessageLog(&buf)
			runScript(t, cfg, tt.script)
			replies := map[string]string{}
			for _, e := range parseLog(t, buf.Bytes()) {
				if e.Dir == Send {
					replies[e.Method] = string(e.Kind)
				}
			}
			want := map[string]string{tt.failed: string(KindError)}
			if tt.failed != "initialize" {
				want["initialize"] = string(KindResponse)
			}
			if diff := cmp.Diff(want, replies); diff != "" {
				t.Errorf("replies by method mismatch (-want +got):\n%s", diff)
			}
		})
	}
	for _, a := range []Args{{Fail: "prompts/list"}, {Fail: "server/discover"}, {Eras: ModeModern, Fail: "initialize"}} {
		if err := a.Validate(); err == nil {
			t.Errorf("Validate(%+v): no error", a)
		}
	}
}

// TestToolMeta: -tool-meta puts its object in lookup_part's _meta in the
// tools/list reply, and only there; a value that is not a JSON object is
// refused.
func TestToolMeta(t *testing.T) {
	cfg, err := Args{Instr: "none", ToolMeta: `{"anthropic/alwaysLoad":true}`}.Config()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	cfg.Log = NewMessageLog(&buf)
	runScript(t, cfg, initialize+"\n!silent "+initialized+"\n"+toolsList)
	got := map[string]string{}
	for _, e := range parseLog(t, buf.Bytes()) {
		if e.Method != "tools/list" || e.Dir != Send {
			continue
		}
		var reply struct {
			Result struct {
				Tools []struct {
					Name string
					Meta json.RawMessage `json:"_meta"`
				}
			}
		}
		if err := json.Unmarshal(e.Body, &reply); err != nil {
			t.Fatal(err)
		}
		for _, tool := range reply.Result.Tools {
			got[tool.Name] = string(tool.Meta)
		}
	}
	want := map[string]string{"lookup_part": `{"anthropic/alwaysLoad":true}`, "list_bins": "", "lab_ping": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("_meta by tool mismatch (-want +got):\n%s", diff)
	}
	for _, v := range []string{"true", "[1]", "{", "null"} {
		if _, err := (Args{ToolMeta: v}).Config(); err == nil || !strings.HasPrefix(err.Error(), "-tool-meta") {
			t.Errorf("Config with -tool-meta %s: %v", v, err)
		}
	}
}
