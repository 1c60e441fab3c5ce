package lab_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/instrlab/instrlab/lab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An instructions text of a given kind and length, as the -instr flag asks
// for it. Each era's text carries its own pair of codewords, at the first and
// last sentence, and "[at N]" markers that say where a client cut it.
func ExampleParseInstructions() {
	in, err := lab.ParseInstructions("ascii:600")
	if err != nil {
		log.Fatal(err)
	}
	for _, era := range lab.Replies() {
		t, err := in.For(era)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d characters, markers at %v\n", era, t.Length(), t.Markers)
		fmt.Println(t.Text[:strings.Index(t.Text, ".")+1])
		fmt.Println(t.Text[strings.LastIndex(t.Text, "END"):])
	}
	// Output:
	// initialize: 600 characters, markers at [295 552]
	// BEGIN codeword: TINAMOU-9861.
	// END codeword: PEAFOWL-6679.
	// discover: 600 characters, markers at [295 552]
	// BEGIN codeword: GADWALL-5170.
	// END codeword: COWBIRD-5866.
}

// Lengths count characters (code points), not bytes, in every language; the
// codewords are deterministic, so Codeword checks a run without the server.
func ExampleGenerate() {
	t, err := lab.Generate(lab.Japanese, 300, lab.ReplyInitialize)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Length(), "characters,", len(t.Text), "bytes")
	fmt.Println(t.Begin, t.End)
	fmt.Println(t.End == lab.Codeword(lab.Japanese, 300, lab.ReplyInitialize, "end"))
	// Output:
	// 300 characters, 642 bytes
	// QUETZAL-1019 KINGLET-2056
	// true
}

// Bad -instr values get an error that says what is accepted.
func ExampleParseInstructions_errors() {
	for _, s := range []string{"klingon:500", "ascii:5"} {
		_, err := lab.ParseInstructions(s)
		fmt.Println(err)
	}
	// Output:
	// instructions "klingon:500": want none or KIND:N, KIND one of ascii, japanese, emoji, cjkb, combining or lines
	// instructions "ascii:5": a generated text needs at least 58 characters for its two codeword sentences
}

// The command line that starts the lab, as it goes into a client's MCP
// config, and the same flags parsed back into a Config.
func ExampleArgs() {
	a := lab.Args{Instr: "japanese:2000", Eras: lab.ModeBoth, Log: "lab.jsonl"}
	argv := append(append([]string{"instrlab"}, lab.Subcommand...), a.Args()...)
	fmt.Println(strings.Join(argv, " "))

	b, err := lab.ParseArgs(a.Args())
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := b.Config()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.Instructions, cfg.Eras)

	_, err = lab.ParseArgs([]string{"-instr", "ascii:500", "-instr-file", "mine.md"})
	fmt.Println(err)
	_, err = lab.Args{Instr: "none", Eras: "future"}.Config()
	fmt.Println(err)
	// Output:
	// instrlab serve lab -instr japanese:2000 -eras legacy,modern -log lab.jsonl
	// japanese:2000 legacy,modern
	// -instr and -instr-file are exclusive
	// unknown eras "future" (want legacy, modern or legacy,modern)
}

// One session with a dual-era lab over the go-sdk's in-memory transports:
// a 2026-07-28 client gets the server/discover text, an older client the
// initialize text, each with its own codewords, and the tools answer.
func ExampleLab_Server() {
	in, err := lab.ParseInstructions("ascii:200")
	if err != nil {
		log.Fatal(err)
	}
	l, err := lab.New(lab.Config{Instructions: in, Eras: lab.ModeBoth})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	// The go-sdk client's default version is 2026-07-28.
	for _, version := range []string{"", "2025-11-25"} {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := l.Server().Connect(ctx, st, nil)
		if err != nil {
			log.Fatal(err)
		}
		client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v1"}, nil)
		cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			log.Fatal(err)
		}
		text := cs.InitializeResult().Instructions
		initialize, discover := l.Texts()
		fmt.Println(text[:strings.Index(text, ".")+1], text == discover.Text, text == initialize.Text)

		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_part", Arguments: map[string]any{"part": "BR-6201"}})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res.Content[0].(*mcp.TextContent).Text)
		cs.Close()
		ss.Close()
	}
	// Output:
	// BEGIN codeword: VULTURE-2796. true false
	// {"bin":"B1","name":"6201 ball bearing","number":"BR-6201","stock":18}
	// BEGIN codeword: ANHINGA-3047. false true
	// {"bin":"B1","name":"6201 ball bearing","number":"BR-6201","stock":18}
}

// A lab in a Go test, served over stdio to a go-sdk client through two
// pipes: what a client builder runs to see what their client makes of the
// instructions. The lab's default era is legacy: it speaks the 2025
// protocol versions, so the client asks for one of them. The message log
// (Config.Log) records every message in both directions, one Entry a JSON
// line, as the lab read or wrote it: the ground truth of what the client
// sent. The texts a server sends, tool calls and what a server asks are
// kept whole in Body.
func ExampleLab_ServeStdio() {
	in, err := lab.ParseInstructions("ascii:200")
	if err != nil {
		log.Fatal(err)
	}
	var logged bytes.Buffer
	l, err := lab.New(lab.Config{Instructions: in, Log: lab.NewMessageLog(&logged)})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	clientR, serverW := io.Pipe()
	serverR, clientW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- l.ServeStdio(ctx, serverR, serverW)
		serverW.Close()
	}()

	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: clientR, Writer: clientW},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		log.Fatal(err)
	}
	text := cs.InitializeResult().Instructions
	initialize, _ := l.Texts()
	fmt.Println(text == initialize.Text, initialize.Begin, initialize.End)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools.Tools {
		fmt.Println(t.Name)
	}
	cs.Close() // closes the lab's stdin: ServeStdio returns
	fmt.Println(<-served)

	lines := bufio.NewScanner(&logged)
	for lines.Scan() {
		var e lab.Entry
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
			log.Fatal(err)
		}
		fmt.Println(e.Dir, e.Kind, e.Method, string(e.ID), "kept whole:", e.Body != nil)
	}
	// Output:
	// true ANHINGA-3047 JACKDAW-4467
	// lab_ping
	// list_bins
	// lookup_part
	// <nil>
	// recv request initialize 1 kept whole: true
	// send response initialize 1 kept whole: true
	// recv notification notifications/initialized  kept whole: false
	// recv request tools/list 2 kept whole: false
	// send response tools/list 2 kept whole: true
}

// The lab over Streamable HTTP (Handler), here in an httptest server: a
// legacy lab keeps a session per client (Mcp-Session-Id) and checks that
// a request's Origin is a loopback one.
func ExampleLab_Handler() {
	l, err := lab.New(lab.Config{Instructions: lab.Instructions{Language: lab.English, Length: 300}})
	if err != nil {
		log.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	text := cs.InitializeResult().Instructions
	fmt.Println(len([]rune(text)), "characters, from", text[:strings.Index(text, ".")+1])
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "lookup_part", Arguments: map[string]any{"part": "XX-0000"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// 300 characters, from BEGIN codeword: CATBIRD-1848.
	// true unknown part "XX-0000": no such part number in the inventory
}

// Two lines of a message log (lab.jsonl, as -log or Config.Log writes it),
// read back: a client sent a batch, which the lab logged with its raw text
// and why it is invalid, and answered with the JSON-RPC error the
// specification prescribes. The analysis of a run reads its evidence this
// way.
func ExampleEntry() {
	logged := `{"time":"2026-12-06T16:02:52.703374613Z","dir":"recv","transport":"stdio","kind":"invalid","note":"batch arrays are not supported (removed in protocol 2025-06-18)","raw":"[{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}]","bytes":42}
{"time":"2026-12-06T16:02:52.703949875Z","dir":"send","transport":"stdio","kind":"error","id":null,"error":-32600,"bytes":127}
`
	for line := range strings.Lines(logged) {
		var e lab.Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			log.Fatal(err)
		}
		switch e.Kind {
		case lab.KindInvalid:
			fmt.Printf("%s %s %d bytes: %s\n%s\n", e.Time.Format(time.TimeOnly), e.Dir, e.Bytes, e.Note, e.Raw)
		case lab.KindError:
			fmt.Printf("%s %s error %d\n", e.Time.Format(time.TimeOnly), e.Dir, *e.Error)
		}
	}
	// Output:
	// 16:02:52 recv 42 bytes: batch arrays are not supported (removed in protocol 2025-06-18)
	// [{"jsonrpc":"2.0","id":7,"method":"ping"}]
	// 16:02:52 send error -32600
}

// The flags a client's MCP config passes to "instrlab serve lab", read
// into a Config and a server: what a program that serves the lab under a
// command line of its own does with them.
func ExampleParseArgs() {
	a, err := lab.ParseArgs([]string{"-instr", "emoji:400", "-eras", "legacy,modern", "-surface", "names,twin"})
	if err != nil {
		log.Fatal(err)
	}
	cfg, err := a.Config()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.Instructions, cfg.Eras, cfg.Surface.Groups)
	l, err := lab.New(cfg)
	if err != nil {
		log.Fatal(err)
	}
	initialize, discover := l.Texts()
	fmt.Println(initialize.Length(), discover.Length(), initialize.Begin != discover.Begin)
	// Output:
	// emoji:400 legacy,modern [names twin]
	// 400 400 true
}
