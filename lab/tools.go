package lab

import (
	"context"
	"fmt"
	"strings"

	"github.com/instrlab/instrlab/internal/labvocab"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Part is one line of the lab's inventory.
type Part struct {
	Number string `json:"number" jsonschema:"the part number, e.g. M3-0412"`
	Name   string `json:"name"`
	Bin    string `json:"bin"`
	Stock  int    `json:"stock" jsonschema:"units in stock; zero means reorder"`
}

// Inventory is the lab's built-in inventory, one kind of part per bin.
var Inventory = []Part{
	{"M3-0412", "M3 hex bolt, 12 mm", "A1", 340},
	{"M4-0420", "M4 hex bolt, 20 mm", "A2", 125},
	{"NY-0300", "M3 nylon lock nut", "A3", 0},
	{"BR-6201", "6201 ball bearing", "B1", 18},
	{"BR-6203", "6203 ball bearing", "B2", 6},
	{"SP-1050", "compression spring, 10 x 50 mm", "B3", 42},
	{"WS-0300", "M3 flat washer", "C1", 900},
	{"FU-0520", "5 x 20 mm fuse, 2 A", "C2", 75},
	{"OR-2015", "O-ring, 20 x 1.5 mm", "C3", 0},
}

type lookupIn struct {
	Part string `json:"part" jsonschema:"the part number to look up, as the user wrote it"`
}

type binsOut struct {
	Bins []Part `json:"bins"`
}

type pingOut struct {
	Server string `json:"server"`
	Reply  string `json:"reply"`
}

// addTools adds the lab's tools; lookupDesc, when not empty, describes
// lookup_part (a matrix row's tool_description), and meta, when not nil,
// is its _meta.
func addTools(s *mcp.Server, lookupDesc string, meta map[string]any) {
	if lookupDesc == "" {
		lookupDesc = "Look up one part by its part number: its name, the bin it is kept in, and the units in stock."
	}
	mcp.AddTool(s, &mcp.Tool{
		Name:        labvocab.MetaTool,
		Description: lookupDesc,
		Meta:        meta,
	}, lookupPart)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "list_bins",
		Description: "List the storage bins and the part each one holds.",
	}, listBins)
	mcp.AddTool(s, &mcp.Tool{
		Name:        "lab_ping",
		Description: "Check that the lab server is reachable. Changes nothing.",
	}, labPing)
}

func lookupPart(ctx context.Context, req *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, Part, error) {
	want := strings.ToUpper(strings.TrimSpace(in.Part))
	for _, p := range Inventory {
		if p.Number == want {
			return nil, p, nil
		}
	}
	// A tool error, not a protocol error: the model should see it.
	return nil, Part{}, fmt.Errorf("unknown part %q: no such part number in the inventory", in.Part)
}

func listBins(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, binsOut, error) {
	return nil, binsOut{Bins: Inventory}, nil
}

func labPing(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, pingOut, error) {
	return nil, pingOut{Server: Name, Reply: "pong"}, nil
}
