package lab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A toolsCache answers tools/list with the SDK's own result, except that the
// tools are marshalled once instead of on every request.
//
// The SDK lists the very *mcp.Tool values it was given by AddTool, with
// *jsonschema.Schema schemas that it marshals by reflection for every reply
// (63% of the CPU time of pipelined tools/list in BenchmarkToolsList); and
// marshalling the tools by reflection, even with their schemas as
// json.RawMessage, was still a third of it. A cached copy of each tool
// carries the same schemas as json.RawMessage, and the JSON array of the
// copies is marshalled once, the way the SDK's encoder does (encoding/json,
// no HTML escaping, compact), so the bytes on the wire do not change:
// TestToolsListFastPath compares them with the SDK's in every era. The
// rest of the result (_meta, the cursor, what the SDK adds after the
// middleware in the 2026-07-28 protocol) is marshalled for each reply.
//
// A tool's definition may have members the SDK's Tool has no field for
// (SurfaceTool.Members): the cache adds them to its object, after the
// SDK's own.
type toolsCache struct {
	mu      sync.Mutex
	tools   map[*mcp.Tool]*mcp.Tool               // the SDK's tool → a copy with raw schemas
	members map[string]map[string]json.RawMessage // by tool name, fixed at New
	of      []*mcp.Tool                           // the SDK's tools that array lists, in order
	array   json.RawMessage                       // the JSON array of their copies
}

func newToolsCache(members map[string]map[string]json.RawMessage) *toolsCache {
	return &toolsCache{tools: make(map[*mcp.Tool]*mcp.Tool), members: members}
}

// list returns res as a result that marshals its tools from the cache. If a
// tool does not marshal, it returns res unchanged, and the SDK reports the
// error as it would have.
func (c *toolsCache) list(res *mcp.ListToolsResult) mcp.Result {
	array, ok := c.arrayOf(res.Tools)
	if !ok {
		return res
	}
	out := *res
	out.Tools = []*mcp.Tool{}
	return &cachedToolsList{ListToolsResult: &out, tools: array}
}

// arrayOf returns the JSON array of tools, marshalled once for the list the
// SDK gives: the lab's tools are fixed at New.
func (c *toolsCache) arrayOf(tools []*mcp.Tool) (json.RawMessage, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.array != nil && slices.Equal(c.of, tools) {
		return c.array, true
	}
	array := []byte{'['}
	for i, t := range tools {
		ct, ok := c.tools[t]
		if !ok {
			var err error
			if ct, err = marshalSchemas(t); err != nil {
				return nil, false
			}
			c.tools[t] = ct
		}
		b, err := rawJSON(ct)
		if err == nil {
			b, err = withMembers(b, c.members[t.Name])
		}
		if err != nil {
			return nil, false
		}
		if i > 0 {
			array = append(array, ',')
		}
		array = append(array, b...)
	}
	array = append(array, ']')
	c.of, c.array = slices.Clone(tools), array
	return array, true
}

// withMembers is obj, a JSON object, with members after its own, in the
// order of their names.
func withMembers(obj json.RawMessage, members map[string]json.RawMessage) (json.RawMessage, error) {
	if len(members) == 0 {
		return obj, nil
	}
	out, ok := bytes.CutSuffix(bytes.Clone(obj), []byte("}"))
	if !ok {
		return nil, fmt.Errorf("a tool's definition %.40q is not an object", obj)
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		name, err := rawJSON(k)
		if err != nil {
			return nil, err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, name...), ':'), members[k]...)
	}
	return append(out, '}'), nil
}

// A cachedToolsList is a tools/list result whose tools are marshalled
// already. Tools is empty; MarshalJSON puts the array in its place.
type cachedToolsList struct {
	*mcp.ListToolsResult
	tools json.RawMessage
}

// toolsTail is how a ListToolsResult with no tools ends: Tools is its last
// field.
var toolsTail = []byte(`"tools":[]}`)

func (r *cachedToolsList) MarshalJSON() ([]byte, error) {
	head, err := rawJSON(r.ListToolsResult)
	if err != nil {
		return nil, err
	}
	head, ok := bytes.CutSuffix(head, toolsTail)
	if !ok {
		return nil, fmt.Errorf("marshalling tools/list: unexpected shape %.60q", head)
	}
	out := make([]byte, 0, len(head)+len(r.tools)+16)
	out = append(append(append(out, head...), `"tools":`...), r.tools...)
	return append(out, '}'), nil
}

// marshalSchemas returns a copy of t whose schemas are marshalled to JSON.
func marshalSchemas(t *mcp.Tool) (*mcp.Tool, error) {
	ct := *t
	var err error
	if t.InputSchema != nil {
		if ct.InputSchema, err = rawJSON(t.InputSchema); err != nil {
			return nil, err
		}
	}
	if t.OutputSchema != nil {
		if ct.OutputSchema, err = rawJSON(t.OutputSchema); err != nil {
			return nil, err
		}
	}
	return &ct, nil
}

// rawJSON marshals v as the SDK's JSON-RPC encoder does: encoding/json
// without HTML escaping. The encoder compacts a json.RawMessage again when it
// writes the reply, so whitespace cannot differ either.
func rawJSON(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), nil
}
