package lab

import "github.com/modelcontextprotocol/go-sdk/mcp"

// The orders -tool-order names: how the tools of a tools/list reply are
// ordered.
const (
	// OrderName is the SDK's own order: by name. A server that lists its
	// tools the same way every time lets a client keep a stable prompt.
	OrderName = "name"
	// OrderRotate lists the tools in a new order every time, as a server
	// that keeps its tools in a hash map may: the n-th tools/list reply of
	// the process (n from 1) moves the first n tools, in name order, to
	// the end. The order is a function of n alone, so a test can say
	// which order each listing had; with k tools, listing k is in name
	// order again.
	OrderRotate = "rotate"
)

// toolOrders lists the orders -tool-order accepts.
var toolOrders = []string{OrderName, OrderRotate}

// rotate returns tools, in name order, as the n-th listing of OrderRotate
// lists them: the first n mod len(tools) moved to the end. tools is not
// changed.
func rotate(tools []*mcp.Tool, n int) []*mcp.Tool {
	if len(tools) == 0 {
		return tools
	}
	k := n % len(tools)
	out := make([]*mcp.Tool, 0, len(tools))
	return append(append(out, tools[k:]...), tools[:k]...)
}
