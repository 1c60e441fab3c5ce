package lab

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A toolsCache answers tools/list with the SDK's own result, except that each
// tool's schemas are marshalled once instead of on every request.
//
// The SDK lists the very *mcp.Tool values it was given by AddTool, with
// *jsonschema.Schema schemas that it marshals by reflection for every reply
// (63% of the CPU time of pipelined tools/list in BenchmarkToolsList). A
// cached copy of each tool carries the same schemas as json.RawMessage,
// marshalled the way the SDK's encoder does (encoding/json, no HTML
// escaping, compact), so the bytes on the wire do not change:
// TestToolsListFastPath compares them with the SDK's in every era.
type toolsCache struct {
	mu    sync.Mutex
	tools map[*mcp.Tool]*mcp.Tool // the SDK's tool → a copy with raw schemas
}

func newToolsCache() *toolsCache {
	return &toolsCache{tools: make(map[*mcp.Tool]*mcp.Tool)}
}

// list returns a shallow copy of res whose tools are the cached copies. If a
// schema does not marshal, it returns res unchanged, and the SDK reports the
// error as it would have.
func (c *toolsCache) list(res *mcp.ListToolsResult) *mcp.ListToolsResult {
	out := *res
	out.Tools = make([]*mcp.Tool, len(res.Tools))
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, t := range res.Tools {
		ct, ok := c.tools[t]
		if !ok {
			var err error
			if ct, err = marshalSchemas(t); err != nil {
				return res
			}
			// The lab's tools are fixed at New, so the map stays as small
			// as the tool list.
			c.tools[t] = ct
		}
		out.Tools[i] = ct
	}
	return &out
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
