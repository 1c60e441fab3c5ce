package lab

import (
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TasksExtension is the tasks extension of the 2026-07-28 protocol
// (SEP-2663): a client that declares it takes, for a tools/call, a task
// the server chose to make in place of the result, and polls tasks/get
// for its state and, once completed, its result.
const TasksExtension = "io.modelcontextprotocol/tasks"

// The task the lab makes of a call of protocol_task for a client that
// declared TasksExtension: completed TaskDuration after it was made, with
// the call's result; TaskPollMs is the poll interval it asks for.
const (
	TaskDuration = time.Second
	TaskPollMs   = 500
	taskTTLMs    = 60000
)

// labTasks are the tasks of one lab, by id.
type labTasks struct {
	mu    sync.Mutex
	n     int
	tasks map[string]*labTask
}

type labTask struct {
	created time.Time
	result  json.RawMessage // the call's result, its state once completed
}

// declaresTasks reports whether the client of req declared TasksExtension:
// in its initialize (a 2025-11-25 client may), or in the request's _meta
// (2026-07-28).
func declaresTasks(req *mcp.CallToolRequest) bool {
	if ss := req.Session; ss != nil {
		if p := ss.InitializeParams(); p != nil && p.Capabilities != nil {
			if _, ok := p.Capabilities.Extensions[TasksExtension]; ok {
				return true
			}
		}
	}
	return req.Params != nil && metaDeclaresTasks(req.Params.GetMeta())
}

// metaDeclaresTasks reports whether a 2026-07-28 request's _meta declares
// TasksExtension among the client's capabilities.
func metaDeclaresTasks(meta map[string]any) bool {
	caps, _ := meta["io.modelcontextprotocol/clientCapabilities"].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	_, ok := ext[TasksExtension]
	return ok
}

// withTasksExtension is r declaring TasksExtension too, for a client
// that declared it in its server/discover's _meta (the extension is
// negotiated: each side declares it); r's capabilities are copied, not
// changed in place.
func withTasksExtension(r *mcp.DiscoverResult) {
	c := mcp.ServerCapabilities{}
	if r.Capabilities != nil {
		c = *r.Capabilities
	}
	ext := make(map[string]any, len(c.Extensions)+1)
	maps.Copy(ext, c.Extensions)
	ext[TasksExtension] = map[string]any{}
	c.Extensions = ext
	r.Capabilities = &c
}

// taskCall answers a call of protocol_task from a client that declared
// TasksExtension with a task made of its result (ok), as the extension
// lets a server choose.
func (l *Lab) taskCall(req mcp.Request) (mcp.Result, bool) {
	cr, ok := req.(*mcp.CallToolRequest)
	if !ok || cr.Params == nil || cr.Params.Name != labvocab.ProtocolTask || !l.cfg.Surface.Has(SurfaceProtocol) || !declaresTasks(cr) {
		return nil, false
	}
	t, ok := l.surface[labvocab.ProtocolTask]
	if !ok || t.call == nil {
		return nil, false
	}
	res, err := t.call()
	if err != nil {
		return nil, false
	}
	body, err := rawJSON(res)
	if err != nil {
		return nil, false
	}
	now := time.Now().UTC()
	l.tasks.mu.Lock()
	l.tasks.n++
	id := "task-" + strconv.Itoa(l.tasks.n)
	if l.tasks.tasks == nil {
		l.tasks.tasks = map[string]*labTask{}
	}
	l.tasks.tasks[id] = &labTask{created: now, result: body}
	l.tasks.mu.Unlock()
	created, _ := json.Marshal(taskState(id, now, now, "working", nil, "task"))
	return taskCreated{CallToolResult: res, json: created}, true
}

// taskState is a Task of the extension: resultType, its id, status,
// times, ttlMs and pollIntervalMs, and its result once completed.
func taskState(id string, created, updated time.Time, status string, result json.RawMessage, resultType string) map[string]any {
	s := map[string]any{"resultType": resultType, "taskId": id, "status": status,
		"createdAt": created.Format(time.RFC3339Nano), "lastUpdatedAt": updated.Format(time.RFC3339Nano),
		"ttlMs": taskTTLMs, "pollIntervalMs": TaskPollMs}
	if result != nil {
		s["result"] = result
	}
	return s
}

// getTask answers tasks/get: the task's state, completed with the call's
// result once TaskDuration has passed; an error for a task the lab did not
// make.
func (l *Lab) getTask(params json.RawMessage) (json.RawMessage, error) {
	var p struct {
		TaskID string `json:"taskId"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("tasks/get params: %v", err)
	}
	l.tasks.mu.Lock()
	t, ok := l.tasks.tasks[p.TaskID]
	l.tasks.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no task %q", p.TaskID)
	}
	done := t.created.Add(TaskDuration)
	if time.Now().Before(done) {
		return json.Marshal(taskState(p.TaskID, t.created, t.created, "working", nil, "complete"))
	}
	return json.Marshal(taskState(p.TaskID, t.created, done, "completed", t.result, "complete"))
}

// taskAnswer is the lab's answer to the tasks/get m, over either
// transport: the task's state (getTask), or error -32602 saying why not.
func (l *Lab) taskAnswer(m message) []byte {
	res, err := l.getTask(m.params)
	if err != nil {
		return errorResponse(m.id, -32602, err.Error())
	}
	return resultResponse(m.id, res)
}

// servesTasks reports whether the lab made a task: tasks/get is its to
// answer then (the SDK knows no such method).
func (l *Lab) servesTasks() bool {
	l.tasks.mu.Lock()
	defer l.tasks.mu.Unlock()
	return len(l.tasks.tasks) > 0
}

// A taskCreated is the CreateTaskResult the lab answers a call with in
// place of the call's result (the SDK's types have none).
type taskCreated struct {
	*mcp.CallToolResult
	json json.RawMessage
}

func (r taskCreated) MarshalJSON() ([]byte, error) { return r.json, nil }
