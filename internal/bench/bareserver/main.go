// Command bareserver is the baseline of instrlab's benchmark: an MCP server
// on the official go-sdk's own stdio transport with nothing added, serving
// three tools shaped like the lab's (typed input and output, so the SDK
// infers their schemas the same way), and no instructions.
//
// It is built like instrlab (go build, default flags), so that the
// difference between the two is the lab's instrumentation and whatever else
// the instrlab binary carries. -tools 1 serves the first tool only: the
// one-tool go-sdk server an independent harness measured the lab against
// (issue 9).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type part struct {
	Number string `json:"number" jsonschema:"the part number, e.g. M3-0412"`
	Name   string `json:"name"`
	Bin    string `json:"bin"`
	Stock  int    `json:"stock" jsonschema:"units in stock; zero means reorder"`
}

type lookupIn struct {
	Part string `json:"part" jsonschema:"the part number to look up, as the user wrote it"`
}

type binsOut struct {
	Bins []part `json:"bins"`
}

type pingOut struct {
	Server string `json:"server"`
	Reply  string `json:"reply"`
}

var inventory = []part{{"M3-0412", "M3 hex bolt, 12 mm", "A1", 340}}

func main() {
	tools := flag.Int("tools", 3, "how many of the three tools to serve (1 to 3)")
	flag.Parse()
	if *tools < 1 || *tools > 3 {
		fmt.Fprintln(os.Stderr, "bareserver: -tools must be 1, 2 or 3")
		os.Exit(2)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "lookup_part", Description: "Look up one part by its part number."},
		func(ctx context.Context, req *mcp.CallToolRequest, in lookupIn) (*mcp.CallToolResult, part, error) {
			for _, p := range inventory {
				if p.Number == in.Part {
					return nil, p, nil
				}
			}
			return nil, part{}, fmt.Errorf("unknown part %q", in.Part)
		})
	if *tools >= 2 {
		addListBins(s)
	}
	if *tools >= 3 {
		addPing(s)
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintf(os.Stderr, "bareserver: %v\n", err)
		os.Exit(1)
	}
}

func addListBins(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "list_bins", Description: "List the storage bins."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, binsOut, error) {
			return nil, binsOut{Bins: inventory}, nil
		})
}

func addPing(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "lab_ping", Description: "Check that the server is reachable."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, pingOut, error) {
			return nil, pingOut{Server: "bare", Reply: "pong"}, nil
		})
}
