//lint:file-ignore SA1019 the lab measures what clients do with sampling, roots and logging, deprecated in 2026-07-28 and still sent by servers

package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AskTimeout bounds how long a SurfaceProtocol tool waits for the client's
// answer to what it asked (an elicitation, a sampling request, its roots):
// a client that never answers costs a call this long, then the tool says
// so in its result. Every answer of the protocol matrix on 2026-12-07 (84,
// from 18 clients) came within 0.1 s; one that comes later is still in the
// log, which the analysis reads.
const AskTimeout = 5 * time.Second

// protocolLog is the tool of SurfaceProtocol that logs while it runs.
const protocolLog = "protocol_log"

// protocolTools are SurfaceProtocol: tools that, while they are called,
// ask the client (elicitation in form and URL mode, sampling, its roots)
// or announce (a log message and progress, a tool added with
// notifications/tools/list_changed), each text with its codeword; and
// tools that declare (visibility for an app alone, an input schema with
// x-mcp-header). Each result says what the client answered, but the
// evidence is the message log, which keeps the requests and the answers.
func protocolTools(seed string) []SurfaceTool {
	tool := func(name, what, c string, ask func(context.Context, *mcp.ServerSession, *mcp.CallToolRequest) string) SurfaceTool {
		desc, key := describe(seed, name, what)
		t := SurfaceTool{Case: c, Key: key, Tool: &mcp.Tool{Name: name, Description: desc, InputSchema: emptyInput}}
		if ask != nil {
			t.ask = func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				said := ask(ctx, req.Session, req)
				return textResult(surfaceText(seed, name, "content text") + " " + said)
			}
		}
		return t
	}
	// An ask: over the 2025 era the lab sends the request itself while the
	// call runs and waits AskTimeout; over 2026-07-28 it answers the call
	// with input_required (inputRequests under the tool's name), and the
	// client's retry carries the answer (inputResponses).
	askTool := func(name, what, c, noun string, params mcp.InputRequest) SurfaceTool {
		t := tool(name, what, c, nil)
		t.ask = func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text := surfaceText(seed, name, "content text")
			var resp mcp.InputResponse
			if modernSession(req.Session) {
				r, ok := req.Params.InputResponses[name]
				if !ok {
					return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{name: params}, RequestState: name}, nil
				}
				resp = r
			} else {
				ctx, cancel := context.WithTimeout(ctx, AskTimeout)
				defer cancel()
				var err error
				if resp, err = fulfill(ctx, req.Session, params); err != nil {
					return textResult(text + " " + asked(noun, err))
				}
			}
			return textResult(text + " " + answered(resp))
		}
		return t
	}
	elicit := func(mode string) mcp.InputRequest {
		name := "protocol_elicit_" + mode
		p := &mcp.ElicitParams{Mode: mode, Message: surfaceText(seed, name, "message")}
		switch mode {
		case "form":
			p.RequestedSchema = map[string]any{"type": "object", "required": []string{"answer"}, "properties": map[string]any{
				"answer": map[string]any{"type": "string", "description": surfaceText(seed, name, "requestedSchema")}}}
		case "url": // a port nothing listens on: a client that opens it finds nothing
			p.URL = "http://127.0.0.1:9/elicit/" + SurfaceCodeword(seed, name, "url")
			p.ElicitationID = SurfaceCodeword(seed, name, "elicitationId")
		}
		return p
	}
	sample := &mcp.CreateMessageParams{MaxTokens: 200,
		SystemPrompt: surfaceText(seed, labvocab.ProtocolSample, "systemPrompt"),
		Messages:     []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: surfaceText(seed, labvocab.ProtocolSample, "message")}}}}
	announce := func(ctx context.Context, ss *mcp.ServerSession, req *mcp.CallToolRequest) string {
		said := "The lab sent a log message"
		if err := ss.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "lab", Data: surfaceText(seed, protocolLog, "log message")}); err != nil {
			said += fmt.Sprintf(" that failed (%v)", err)
		}
		if token := req.Params.GetProgressToken(); token != nil {
			err := ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 2,
				Message: surfaceText(seed, protocolLog, "progress message")})
			if err != nil {
				return said + fmt.Sprintf("; its progress notification failed (%v).", err)
			}
			return said + " and a progress notification."
		}
		return said + "; the call had no progress token."
	}
	change := func(ctx context.Context, _ *mcp.ServerSession, _ *mcp.CallToolRequest) string {
		return "The lab added the tool " + labvocab.ProtocolAddedTool + " and announced it with notifications/tools/list_changed."
	}
	listChanged := tool(labvocab.ProtocolListChanged, "Adds a tool to the server and announces it (notifications/tools/list_changed).", "tools/list_changed", change)
	listChanged.adds = protocolAdded(seed)
	appOnly := tool(labvocab.ProtocolAppOnly, "Its _meta says it is for an app, not the model (MCP Apps visibility).", "_meta.ui.visibility app", nil)
	appOnly.Tool.Meta = mcp.Meta{labvocab.MetaUI: map[string]any{"visibility": []string{"app"}}}
	appOnly.call = func() (*mcp.CallToolResult, error) {
		return textResult(surfaceText(seed, labvocab.ProtocolAppOnly, "content text"))
	}
	header := tool(labvocab.ProtocolHeader, "Its input schema binds an argument to an HTTP header (x-mcp-header).", "x-mcp-header", nil)
	header.Tool.InputSchema = json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","` + labvocab.KeywordHeader + `":"Region","description":` +
		jsonString(surfaceText(seed, labvocab.ProtocolHeader, "property description")) + `}}}`)
	header.call = func() (*mcp.CallToolResult, error) {
		return textResult(surfaceText(seed, labvocab.ProtocolHeader, "content text"))
	}
	task := tool(labvocab.ProtocolTask, "Must be called as a task (execution.taskSupport required).", "taskSupport required", nil)
	task.Members = map[string]json.RawMessage{"execution": json.RawMessage(`{"taskSupport":"required"}`)}
	task.call = func() (*mcp.CallToolResult, error) {
		return textResult(surfaceText(seed, labvocab.ProtocolTask, "content text") + " The lab answered the call as any call, with no task.")
	}
	status := &resourceState{uri: labvocab.ProtocolResourceURI, seed: seed}
	updated := tool(labvocab.ProtocolResourceUpdated, "Changes the resource "+labvocab.ProtocolResourceURI+" and announces it (notifications/resources/updated) to a client that subscribed to it.", "resources/updated", nil)
	updated.updates = status
	updated.call = func() (*mcp.CallToolResult, error) {
		return textResult(surfaceText(seed, labvocab.ProtocolResourceUpdated, "content text") + " The lab changed " + labvocab.ProtocolResourceURI +
			" and sent notifications/resources/updated to the sessions subscribed to it.")
	}
	return []SurfaceTool{
		askTool(labvocab.ProtocolElicitForm, "Asks the user for an answer (elicitation, form mode) while it runs.", "elicitation form", "elicitation", elicit("form")),
		askTool(labvocab.ProtocolElicitURL, "Asks the user to open a URL (elicitation, URL mode) while it runs.", "elicitation url", "elicitation", elicit("url")),
		askTool(labvocab.ProtocolSample, "Asks the client's model for a text (sampling) while it runs.", "sampling", "sampling request", sample),
		askTool(labvocab.ProtocolRoots, "Asks the client for its roots while it runs.", "roots", "roots request", &mcp.ListRootsParams{}),
		tool(protocolLog, "Sends a log message and, given a progress token, a progress notification while it runs.", "log and progress", announce),
		listChanged, updated,
		appOnly, header, task,
	}
}

// A resourceState is the resource a SurfaceProtocol tool changes (its
// updates): its text until the tool is called, another after.
type resourceState struct {
	uri, seed string
	updated   atomic.Bool
}

// add adds the resource to s.
func (r *resourceState) add(s *mcp.Server) {
	s.AddResource(&mcp.Resource{URI: r.uri, Name: labvocab.ProtocolResource, MIMEType: "text/plain",
		Description: surfaceText(r.seed, labvocab.ProtocolResource, "description")},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: r.text()}}}, nil
		})
}

// text is the resource's text: the updated one once the tool has run.
func (r *resourceState) text() string {
	if r.updated.Load() {
		return surfaceText(r.seed, labvocab.ProtocolResource, "updated text")
	}
	return surfaceText(r.seed, labvocab.ProtocolResource, "text")
}

// update changes the resource and announces it to the sessions that
// subscribed to it.
func (r *resourceState) update(ctx context.Context, s *mcp.Server) error {
	r.updated.Store(true)
	return s.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: r.uri})
}

// A tasksDeclared is an initialize result that also declares
// task-augmented tools/call (capabilities.tasks, the 2025-11-25 protocol's
// experimental tasks), which the SDK's ServerCapabilities has no field
// for: the group's protocol_task must be called as a task (its
// execution.taskSupport). The lab runs no 2025-11-25 tasks: it answers a
// call with a task in its params as any call, and the message log shows
// how the client called.
//
// To a client that declared the tasks extension in its initialize
// (TasksExtension: Copilot CLI with its MCP_TASKS flag does, in the
// 2025-11-25 protocol) it declares the extension too, in
// capabilities.extensions, and answers a call of protocol_task with a
// task (taskCall).
type tasksDeclared struct {
	*mcp.InitializeResult
	extension bool
}

// initDeclaresTasks reports whether the initialize request req declares
// TasksExtension.
func initDeclaresTasks(req mcp.Request) bool {
	p, ok := req.GetParams().(*mcp.InitializeParams)
	if !ok || p == nil || p.Capabilities == nil {
		return false
	}
	_, ok = p.Capabilities.Extensions[TasksExtension]
	return ok
}

// tasksCapability is what tasksDeclared declares.
var tasksCapability = json.RawMessage(`{"requests":{"tools":{"call":{}}}}`)

func (r tasksDeclared) MarshalJSON() ([]byte, error) {
	b, err := rawJSON(r.InitializeResult)
	if err != nil {
		return nil, err
	}
	var res, caps map[string]json.RawMessage
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(res["capabilities"], &caps); err != nil {
		return nil, err
	}
	caps["tasks"] = tasksCapability
	if r.extension {
		var ext map[string]json.RawMessage
		json.Unmarshal(caps["extensions"], &ext) // none: a new object
		if ext == nil {
			ext = map[string]json.RawMessage{}
		}
		ext[TasksExtension] = json.RawMessage(`{}`)
		if caps["extensions"], err = rawJSON(ext); err != nil {
			return nil, err
		}
	}
	if res["capabilities"], err = rawJSON(caps); err != nil {
		return nil, err
	}
	return rawJSON(res)
}

// protocolAdded is the tool protocol_list_changed adds.
func protocolAdded(seed string) *SurfaceTool {
	desc, key := describe(seed, labvocab.ProtocolAddedTool, "Added while the server ran, announced by notifications/tools/list_changed.")
	return &SurfaceTool{Group: SurfaceProtocol, Case: "added after tools/list_changed", Key: key,
		Tool: &mcp.Tool{Name: labvocab.ProtocolAddedTool, Description: desc, InputSchema: emptyInput},
		call: func() (*mcp.CallToolResult, error) {
			return textResult(surfaceText(seed, labvocab.ProtocolAddedTool, "content text"))
		}}
}

// modernSession reports whether ss speaks the 2026-07-28 protocol, where a
// server asks through input_required results.
func modernSession(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.ProtocolVersion >= ModernVersion
}

// fulfill sends the request of an ask over the 2025 era and waits for the
// answer.
func fulfill(ctx context.Context, ss *mcp.ServerSession, ask mcp.InputRequest) (mcp.InputResponse, error) {
	switch p := ask.(type) {
	case *mcp.ElicitParams:
		return ss.Elicit(ctx, p)
	case *mcp.CreateMessageParams:
		return ss.CreateMessage(ctx, p)
	case *mcp.ListRootsParams:
		return ss.ListRoots(ctx, p)
	}
	return nil, fmt.Errorf("the lab cannot ask %T", ask)
}

// answered says what the client answered an ask.
func answered(resp mcp.InputResponse) string {
	switch r := resp.(type) {
	case *mcp.ElicitResult:
		content, _ := json.Marshal(r.Content)
		return fmt.Sprintf("The client answered the elicitation: %s %s.", r.Action, content)
	case *mcp.CreateMessageResult:
		text := ""
		if t, ok := r.Content.(*mcp.TextContent); ok {
			text = t.Text
		}
		return fmt.Sprintf("The client's model %q answered: %q.", r.Model, text)
	case *mcp.CreateMessageWithToolsResult:
		text := ""
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				text += t.Text
			}
		}
		return fmt.Sprintf("The client's model %q answered: %q.", r.Model, text)
	case *mcp.ListRootsResult:
		return fmt.Sprintf("The client has %d roots.", len(r.Roots))
	}
	return fmt.Sprintf("The client answered with %T.", resp)
}

// asked says why an ask of the lab went unanswered.
func asked(what string, err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Sprintf("The client did not answer the %s within %v.", what, AskTimeout)
	}
	return fmt.Sprintf("The %s failed: %v.", what, err)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
