//lint:file-ignore SA1019 the lab measures what clients do with sampling, roots and logging, deprecated in 2026-07-28 and still sent by servers

package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// protocolClient connects a go-sdk client of opts to a lab of the protocol
// group over the lab's own stdio transport, and returns the session and
// the log's path.
func protocolClient(t *testing.T, opts *mcp.ClientOptions) (*mcp.ClientSession, string) {
	t.Helper()
	return protocolClientIn(t, opts, ModeLegacy, "2025-11-25")
}

// protocolClientIn is protocolClient with a lab of era and a client of
// version.
func protocolClientIn(t *testing.T, opts *mcp.ClientOptions, era Mode, version string) (*mcp.ClientSession, string) {
	t.Helper()
	cfg, err := Args{Instr: "none", Surface: string(SurfaceProtocol), Seed: "s1", Eras: era}.Config()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lab.jsonl")
	if cfg.Log, err = OpenMessageLog(path); err != nil {
		t.Fatal(err)
	}
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cs, _, err := connectStdio(t, l, opts, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	return cs, path
}

func callText(t *testing.T, cs *mcp.ClientSession, name string, meta mcp.Meta) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Meta: meta, Name: name, Arguments: map[string]any{}})
	if err != nil {
		t.Fatalf("calling %s: %v", name, err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// TestProtocolAsks: each ask reaches a client that declares the feature,
// with its codeword, and the log keeps the request and the answer whole,
// the answer named by the request's method.
func TestProtocolAsks(t *testing.T) {
	for _, era := range []struct {
		lab     Mode
		version string
	}{{ModeLegacy, "2025-11-25"}, {ModeBoth, ModernVersion}} {
		t.Run(era.version, func(t *testing.T) { protocolAsks(t, era.lab, era.version) })
	}
}

// protocolAsks: the asks over one protocol version: over 2026-07-28 in
// input_required results, which the go-sdk client answers in its retry.
func protocolAsks(t *testing.T, era Mode, version string) {
	var mu sync.Mutex
	var got []string
	note := func(s string) { mu.Lock(); got = append(got, s); mu.Unlock() }
	cs, path := protocolClientIn(t, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			note("elicit " + r.Params.Mode + " " + r.Params.Message)
			if r.Params.Mode == "url" {
				return &mcp.ElicitResult{Action: "decline"}, nil
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "yes"}}, nil
		},
		Capabilities: &mcp.ClientCapabilities{Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}},
		CreateMessageHandler: func(_ context.Context, r *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			note("sample " + r.Params.Messages[0].Content.(*mcp.TextContent).Text)
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "sampled"}}, nil
		},
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) { note("log " + r.Params.Data.(string)) },
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			note("progress " + r.Params.Message)
		},
	}, era, version)
	modern := version == ModernVersion
	for _, tc := range []struct{ tool, says string }{
		{"protocol_elicit_form", `accept {"answer":"yes"}`},
		{"protocol_elicit_url", "decline"},
		{"protocol_sample", `"sampled"`},
		{"protocol_roots", "The client has 0 roots."},
		{protocolLog, "a log message and a progress notification"},
	} {
		text := callText(t, cs, tc.tool, mcp.Meta{"progressToken": "p1"})
		if !strings.Contains(text, SurfaceCodeword("s1", tc.tool, "content text")) || !strings.Contains(text, tc.says) {
			t.Errorf("%s: %q, want its codeword and %q", tc.tool, text, tc.says)
		}
	}
	wants := []string{
		"elicit form " + surfaceText("s1", "protocol_elicit_form", "message"),
		"elicit url " + surfaceText("s1", "protocol_elicit_url", "message"),
		"sample " + surfaceText("s1", "protocol_sample", "message"),
		"progress " + surfaceText("s1", protocolLog, "progress message"),
	}
	if !modern { // over 2026-07-28 a request's _meta sets the level; without one the SDK logs nothing
		wants = append(wants, "log "+surfaceText("s1", protocolLog, "log message"))
	}
	for _, want := range wants {
		// Notifications are handled beside the calls: one may come after
		// its call's result.
		has := func() bool { mu.Lock(); defer mu.Unlock(); return slices.Contains(got, want) }
		for deadline := time.Now().Add(5 * time.Second); !has() && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if !has() {
			t.Errorf("the client never got %q; got %q", want, got)
		}
	}
	cs.Close()
	entries := readEntries(t, path)
	if modern {
		// Each ask is a tools/call result of input_required, and the
		// retry carries the answer under the tool's name.
		var asked, retried int
		for _, e := range entries {
			switch {
			case e.Method == "tools/call" && e.Dir == Send && strings.Contains(string(e.Body), `"resultType":"input_required"`):
				asked++
			case e.Method == "tools/call" && e.Dir == Recv && strings.Contains(string(e.Body), `"inputResponses":{"protocol_`):
				retried++
			case slices.Contains(labvocab.AskMethods, e.Method):
				t.Errorf("a request of its own over 2026-07-28: %+v", e)
			}
		}
		if asked != 4 || retried != 4 {
			t.Errorf("%d input_required results, %d retries with inputResponses; want 4 and 4", asked, retried)
		}
		return
	}
	for _, m := range labvocab.AskMethods {
		var req, answer *Entry
		for i, e := range entries {
			switch {
			case e.Method == m && e.Dir == Send && e.Kind == KindRequest:
				req = &entries[i]
			case e.Method == m && e.Dir == Recv && e.Kind == KindResponse:
				answer = &entries[i]
			}
		}
		if req == nil || answer == nil || len(req.Body) == 0 || len(answer.Body) == 0 {
			t.Errorf("%s: request %+v, answer %+v: want both, bodies kept", m, req, answer)
		}
	}
	for _, m := range labvocab.NoticeMethods {
		if !slices.ContainsFunc(entries, func(e Entry) bool { return e.Method == m && e.Dir == Send && len(e.Body) > 0 }) {
			t.Errorf("no %s with its body in the log", m)
		}
	}
}

// TestProtocolUndeclared: a client that declares neither elicitation nor
// sampling gets neither (the SDK refuses to send them), sets no log level
// and gives no progress token: the tools say so, and the lab logs at its
// own level.
func TestProtocolUndeclared(t *testing.T) {
	logs := make(chan string, 1)
	cs, _ := protocolClient(t, &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, r *mcp.LoggingMessageRequest) {
			logs <- string(r.Params.Level) + " " + r.Params.Data.(string)
		},
	})
	if text := callText(t, cs, "protocol_elicit_form", nil); !strings.Contains(text, "client does not support elicitation") {
		t.Errorf("elicitation of a client without the capability: %q", text)
	}
	if text := callText(t, cs, protocolLog, nil); !strings.Contains(text, "no progress token") {
		t.Errorf("log without a progress token: %q", text)
	}
	select {
	case got := <-logs:
		if want := DefaultLogLevel + " " + surfaceText("s1", protocolLog, "log message"); got != want {
			t.Errorf("log message %q, want %q", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Error("no log message for a client that set no level")
	}
}

// TestProtocolListChanged: calling protocol_list_changed adds
// protocol_added, the client hears of it before the call's result, and
// the next tools/list has it; a second call adds nothing again.
func TestProtocolListChanged(t *testing.T) {
	changed := make(chan struct{}, 4)
	cs, path := protocolClient(t, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
	})
	names := func() []string {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tool := range res.Tools {
			out = append(out, tool.Name)
		}
		return out
	}
	if before := names(); slices.Contains(before, labvocab.ProtocolAddedTool) || !slices.Contains(before, labvocab.ProtocolAppOnly) {
		t.Fatalf("tools before the call: %v", before)
	}
	callText(t, cs, labvocab.ProtocolListChanged, nil)
	select {
	case <-changed:
	default:
		t.Error("no tools/list_changed before the call's result")
	}
	if after := names(); !slices.Contains(after, labvocab.ProtocolAddedTool) {
		t.Errorf("tools after the call: %v", after)
	}
	callText(t, cs, labvocab.ProtocolListChanged, nil)
	if text := callText(t, cs, labvocab.ProtocolAddedTool, nil); !strings.Contains(text, SurfaceCodeword("s1", labvocab.ProtocolAddedTool, "content text")) {
		t.Errorf("the added tool answered %q", text)
	}
	cs.Close()
	n := 0
	for _, e := range readEntries(t, path) {
		if e.Method == "notifications/tools/list_changed" && e.Dir == Send {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d tools/list_changed in the log, want 1", n)
	}
}

func readEntries(t *testing.T, path string) []Entry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []Entry
	for line := range strings.Lines(string(data)) {
		var e Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

// TestKeepBodyAsks: the log keeps whole the requests a server sends a
// client and the answers, named or not (the lab's HTTP log cannot name
// them), and the notifications whose texts may reach a model; not a
// notification of another method, nor a client's request of no kept
// method.
func TestKeepBodyAsks(t *testing.T) {
	data := []byte(`{"jsonrpc":"2.0"}`)
	for _, tc := range []struct {
		e    Entry
		kept bool
	}{
		{Entry{Dir: Send, Kind: KindRequest, Method: "elicitation/create"}, true},
		{Entry{Dir: Recv, Kind: KindResponse, Method: "elicitation/create"}, true},
		{Entry{Dir: Recv, Kind: KindError, Method: "sampling/createMessage"}, true},
		{Entry{Dir: Recv, Kind: KindResponse}, true},
		{Entry{Dir: Send, Kind: KindNotification, Method: "notifications/message"}, true},
		{Entry{Dir: Send, Kind: KindNotification, Method: "notifications/progress"}, true},
		{Entry{Dir: Send, Kind: KindNotification, Method: "notifications/tools/list_changed"}, false},
		{Entry{Dir: Recv, Kind: KindRequest, Method: "ping"}, false},
		{Entry{Dir: Send, Kind: KindResponse, Method: "ping"}, false},
	} {
		e := tc.e
		keepBody(&e, data)
		if kept := e.Body != nil; kept != tc.kept {
			t.Errorf("%s %s %s: kept %v, want %v", e.Dir, e.Kind, e.Method, kept, tc.kept)
		}
	}
}

// TestSubscriptionIDs: the acknowledgement of a subscriptions/listen
// stream over stdio names the stream by the client's id of its listen
// request, not the id the lab gave the request inside (Claude Code
// 2.1.332, never seeing its own, waited its 27 s budget before listing
// the tools).
func TestSubscriptionIDs(t *testing.T) {
	cfg, err := Args{Instr: "none", Eras: ModeBoth, Surface: string(SurfaceProtocol)}.Config()
	if err != nil {
		t.Fatal(err)
	}
	p := startPipeServer(t, cfg)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":"d1","method":"server/discover","params":{`+meta+`}}`+"\n")
	if got := p.next(5 * time.Second); !strings.Contains(got, `"id":"d1"`) {
		t.Fatalf("server/discover: %s", got)
	}
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":"listen:0","method":"subscriptions/listen","params":{`+meta+`,"notifications":{"toolsListChanged":true}}}`+"\n")
	got := p.next(5 * time.Second)
	if !strings.Contains(got, "notifications/subscriptions/acknowledged") || !strings.Contains(got, `"io.modelcontextprotocol/subscriptionId":"listen:0"`) {
		t.Errorf("acknowledgement %s, want the stream named listen:0", got)
	}
}

// TestProtocolTask: a lab of the protocol group declares task-augmented
// tools/call in its initialize result, beside the SDK's capabilities,
// and lists protocol_task with execution.taskSupport "required"; a call
// of it, with a task or without, is answered as any call. A lab without
// the group declares no tasks.
func TestProtocolTask(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"protocol_task","arguments":{},"task":{"ttl":60000}}}`
	serve := func(surface string) map[string]json.RawMessage {
		cfg, err := Args{Instr: "none", Surface: surface, Seed: "s1", Eras: ModeLegacy}.Config()
		if err != nil {
			t.Fatal(err)
		}
		l, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := l.ServeStdio(context.Background(), strings.NewReader(initialize+"\n"+initialized+"\n"+toolsList+"\n"+call+"\n"), &out); err != nil {
			t.Fatal(err)
		}
		replies := map[string]json.RawMessage{}
		for line := range strings.Lines(out.String()) {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal([]byte(line), &m) == nil && m.ID != nil {
				replies[string(m.ID)] = m.Result
			}
		}
		return replies
	}
	type caps struct {
		Capabilities struct {
			Tasks *struct {
				Requests struct {
					Tools struct {
						Call *struct{} `json:"call"`
					} `json:"tools"`
				} `json:"requests"`
			} `json:"tasks"`
			Tools   *struct{ ListChanged bool } `json:"tools"`
			Logging *struct{}                   `json:"logging"`
		} `json:"capabilities"`
		ProtocolVersion string `json:"protocolVersion"`
	}
	replies := serve(string(SurfaceProtocol))
	var init caps
	if err := json.Unmarshal(replies["1"], &init); err != nil {
		t.Fatalf("initialize: %v: %s", err, replies["1"])
	}
	if c := init.Capabilities; c.Tasks == nil || c.Tasks.Requests.Tools.Call == nil || c.Tools == nil || !c.Tools.ListChanged || c.Logging == nil || init.ProtocolVersion == "" {
		t.Errorf("initialize of the protocol group: %s; want tasks.requests.tools.call beside the SDK's tools.listChanged and logging", replies["1"])
	}
	var list struct {
		Tools []struct {
			Name      string `json:"name"`
			Execution *struct {
				TaskSupport string `json:"taskSupport"`
			} `json:"execution"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(replies["2"], &list); err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		switch {
		case tool.Name == labvocab.ProtocolTask && (tool.Execution == nil || tool.Execution.TaskSupport != "required"):
			t.Errorf("%s: execution %+v, want taskSupport required", tool.Name, tool.Execution)
		case tool.Name != labvocab.ProtocolTask && tool.Execution != nil:
			t.Errorf("%s: execution %+v, want none", tool.Name, tool.Execution)
		}
	}
	if !strings.Contains(string(replies["3"]), surfaceText("s1", labvocab.ProtocolTask, "content text")) {
		t.Errorf("a task-augmented call of protocol_task: %s, want its text", replies["3"])
	}
	var plain caps
	if err := json.Unmarshal(serve(string(SurfaceResults))["1"], &plain); err != nil || plain.Capabilities.Tasks != nil || plain.Capabilities.Tools == nil {
		t.Errorf("initialize of a lab without the protocol group: tasks %+v, tools %+v, %v; want no tasks", plain.Capabilities.Tasks, plain.Capabilities.Tools, err)
	}
}

// TestProtocolTaskExtension: to a client that declares the tasks
// extension in its initialize, the lab declares it too and answers a call
// of protocol_task with a task (resultType "task", its id, working, the
// poll interval); tasks/get says working until TaskDuration has passed,
// then completed with the call's result; an unknown task is an error.
func TestProtocolTaskExtension(t *testing.T) {
	cfg, err := Args{Instr: "none", Surface: string(SurfaceProtocol), Seed: "s1", Eras: ModeLegacy}.Config()
	if err != nil {
		t.Fatal(err)
	}
	p := startPipeServer(t, cfg)
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"`+TasksExtension+`":{}}},"clientInfo":{"name":"test","version":"1"}}}`+"\n"+initialized+"\n")
	var init struct {
		Result struct {
			Capabilities struct {
				Extensions map[string]json.RawMessage `json:"extensions"`
			} `json:"capabilities"`
		} `json:"result"`
	}
	if line := p.next(5 * time.Second); json.Unmarshal([]byte(line), &init) != nil || init.Result.Capabilities.Extensions[TasksExtension] == nil {
		t.Fatalf("initialize: %s; want the tasks extension declared", line)
	}
	start := time.Now()
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"protocol_task","arguments":{}}}`+"\n")
	var task struct {
		Result struct {
			ResultType     string          `json:"resultType"`
			TaskID         string          `json:"taskId"`
			Status         string          `json:"status"`
			PollIntervalMs int             `json:"pollIntervalMs"`
			Result         json.RawMessage `json:"result"`
		} `json:"result"`
	}
	line := p.next(5 * time.Second)
	if json.Unmarshal([]byte(line), &task) != nil || task.Result.ResultType != "task" || task.Result.TaskID == "" || task.Result.Status != "working" || task.Result.PollIntervalMs != TaskPollMs {
		t.Fatalf("tools/call: %s; want a task, working, polled every %d ms", line, TaskPollMs)
	}
	get := func(id, taskID string) string {
		io.WriteString(p.in, `{"jsonrpc":"2.0","id":`+id+`,"method":"tasks/get","params":{"taskId":"`+taskID+`"}}`+"\n")
		return p.next(5 * time.Second)
	}
	if line := get("3", task.Result.TaskID); time.Since(start) < TaskDuration && !strings.Contains(line, `"status":"working"`) {
		t.Errorf("tasks/get at once: %s; want working", line)
	}
	time.Sleep(TaskDuration)
	line = get("4", task.Result.TaskID)
	text := surfaceText("s1", labvocab.ProtocolTask, "content text")
	if !strings.Contains(line, `"status":"completed"`) || !strings.Contains(line, text) || !strings.Contains(line, `"resultType":"complete"`) {
		t.Errorf("tasks/get after %v: %s; want completed with the call's result", TaskDuration, line)
	}
	if line := get("5", "no-such-task"); !strings.Contains(line, `"error"`) {
		t.Errorf("tasks/get of an unknown task: %s; want an error", line)
	}
}

// TestProtocolResourceUpdated: the protocol group declares
// resources.subscribe; protocol_resource_updated changes its resource and
// announces it, before the call's result, to a client that subscribed,
// and the resource reads with its new text after; a client that did not
// subscribe is sent nothing.
func TestProtocolResourceUpdated(t *testing.T) {
	updated := make(chan string, 4)
	cs, path := protocolClient(t, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) { updated <- r.Params.URI },
	})
	if c := cs.InitializeResult().Capabilities; c.Resources == nil || !c.Resources.Subscribe {
		t.Fatalf("capabilities: %+v, want resources.subscribe", c)
	}
	read := func() string {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: labvocab.ProtocolResourceURI})
		if err != nil || len(res.Contents) != 1 {
			t.Fatalf("reading %s: %v %v", labvocab.ProtocolResourceURI, res, err)
		}
		return res.Contents[0].Text
	}
	if got := read(); !strings.Contains(got, SurfaceCodeword("s1", labvocab.ProtocolResource, "text")) {
		t.Errorf("before: %q", got)
	}
	callText(t, cs, labvocab.ProtocolResourceUpdated, nil)
	select {
	case uri := <-updated:
		t.Errorf("a client that did not subscribe was sent resources/updated of %s", uri)
	default:
	}
	if err := cs.Subscribe(context.Background(), &mcp.SubscribeParams{URI: labvocab.ProtocolResourceURI}); err != nil {
		t.Fatal(err)
	}
	callText(t, cs, labvocab.ProtocolResourceUpdated, nil)
	select { // the client's handler runs on its own: the log has the order on the wire
	case uri := <-updated:
		if uri != labvocab.ProtocolResourceURI {
			t.Errorf("resources/updated of %s", uri)
		}
	case <-time.After(5 * time.Second):
		t.Error("no resources/updated")
	}
	if got := read(); !strings.Contains(got, SurfaceCodeword("s1", labvocab.ProtocolResource, "updated text")) {
		t.Errorf("after: %q, want the updated text", got)
	}
	cs.Close()
	var subscribed, sent, resultsAfter int
	for _, e := range readEntries(t, path) {
		switch {
		case e.Method == "resources/subscribe" && e.Dir == Recv:
			subscribed++
		case e.Method == "notifications/resources/updated" && e.Dir == Send:
			sent++
		case e.Method == "tools/call" && e.Dir == Send && sent == 1:
			resultsAfter++
		}
	}
	if subscribed != 1 || sent != 1 || resultsAfter != 1 {
		t.Errorf("the log has %d resources/subscribe, %d resources/updated and %d call results after it, want 1, 1 and 1 (the notification before the second call's result)", subscribed, sent, resultsAfter)
	}
}

// TestDiscoverTasksExtension: over 2026-07-28 the protocol group's lab
// declares the tasks extension in its DiscoverResult to a client whose
// server/discover declared it in its _meta, and not to one that did not;
// the lab's own capabilities are not changed for the next.
func TestDiscoverTasksExtension(t *testing.T) {
	cfg, err := Args{Instr: "none", Surface: string(SurfaceProtocol), Seed: "s1", Eras: ModeBoth}.Config()
	if err != nil {
		t.Fatal(err)
	}
	p := startPipeServer(t, cfg)
	discover := func(id int, ext string) map[string]json.RawMessage {
		t.Helper()
		fmt.Fprintf(p.in, `{"jsonrpc":"2.0","id":%d,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",`+
			`"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{%s}}}}`+"\n", id, ext)
		line := p.next(5 * time.Second)
		var r struct {
			Result struct {
				Capabilities struct {
					Extensions map[string]json.RawMessage `json:"extensions"`
				} `json:"capabilities"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil || !strings.Contains(line, `"result"`) {
			t.Fatalf("server/discover: %s", line)
		}
		return r.Result.Capabilities.Extensions
	}
	if ext := discover(1, `"extensions":{"`+TasksExtension+`":{}}`); ext[TasksExtension] == nil {
		t.Errorf("a client that declares the tasks extension: extensions %v, want it declared back", ext)
	}
	if ext := discover(2, ``); ext[TasksExtension] != nil {
		t.Errorf("a client that does not: extensions %v, want no tasks extension", ext)
	}
}

// TestProtocolTaskExtensionHTTP: over Streamable HTTP as over stdio, a
// client that declared the tasks extension gets a task for its call of
// protocol_task, and the lab answers its tasks/get (which the SDK knows
// not): working, then completed with the call's result; an unknown task
// is an error; the log has the exchange.
func TestProtocolTaskExtensionHTTP(t *testing.T) {
	var logBuf bytes.Buffer
	cfg, err := Args{Instr: "none", Surface: string(SurfaceProtocol), Seed: "s1", Eras: ModeLegacy}.Config()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Log = NewMessageLog(&logBuf)
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(l.Handler())
	defer srv.Close()
	session := ""
	send := func(body string) string {
		t.Helper()
		_, header, data := postRead(t, srv.URL, session, body)
		if s := header.Get("Mcp-Session-Id"); s != "" {
			session = s
		}
		for line := range strings.SplitSeq(string(data), "\n") { // an event stream's data, or a JSON body
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				return d
			}
		}
		return string(data)
	}
	if line := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"` + TasksExtension + `":{}}},"clientInfo":{"name":"test","version":"1"}}}`); !strings.Contains(line, TasksExtension) {
		t.Fatalf("initialize: %s; want the tasks extension declared", line)
	}
	send(initialized)
	start := time.Now()
	var task struct {
		Result struct {
			ResultType string `json:"resultType"`
			TaskID     string `json:"taskId"`
		} `json:"result"`
	}
	if line := send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"protocol_task","arguments":{}}}`); json.Unmarshal([]byte(line), &task) != nil || task.Result.ResultType != "task" || task.Result.TaskID == "" {
		t.Fatalf("tools/call: %s; want a task", line)
	}
	get := func(id, taskID string) string {
		return send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tasks/get","params":{"taskId":"` + taskID + `"}}`)
	}
	if line := get("3", task.Result.TaskID); time.Since(start) < TaskDuration && !strings.Contains(line, `"status":"working"`) {
		t.Errorf("tasks/get at once: %s; want working", line)
	}
	time.Sleep(TaskDuration)
	if line := get("4", task.Result.TaskID); !strings.Contains(line, `"status":"completed"`) || !strings.Contains(line, surfaceText("s1", labvocab.ProtocolTask, "content text")) {
		t.Errorf("tasks/get after %v: %s; want completed with the call's result", TaskDuration, line)
	}
	if line := get("5", "no-such-task"); !strings.Contains(line, `"error"`) || !strings.Contains(line, "no task") {
		t.Errorf("tasks/get of an unknown task: %s; want an error", line)
	}
	var gets, answers int
	for _, e := range parseLog(t, logBuf.Bytes()) {
		if e.Method == "tasks/get" && e.Dir == Recv {
			gets++
		}
		if e.Method == "tasks/get" && e.Dir == Send {
			answers++
		}
	}
	if gets != 3 || answers != 3 {
		t.Errorf("the log has %d tasks/get and %d answers, want 3 and 3", gets, answers)
	}
}
