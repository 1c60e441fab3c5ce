package live_test

import (
	"context"
	"fmt"
	"log"
	"sync/atomic"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server whose instructions follow a setting that changes while it runs:
// each connect sees the value current at that connect, with no restart.
func Example() {
	var coach atomic.Value
	coach.Store("Be gentle.")

	server := mcp.NewServer(&mcp.Implementation{Name: "coach", Version: "v1"}, nil)
	live.Install(server, func(ctx context.Context, c live.Conn) (string, error) {
		return coach.Load().(string), nil
	}, &live.Options{Fallback: "Be kind."})

	connect := func() {
		ctx := context.Background()
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(ctx, st, nil)
		if err != nil {
			log.Fatal(err)
		}
		defer ss.Close()
		client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "v1"}, nil)
		cs, err := client.Connect(ctx, ct, nil)
		if err != nil {
			log.Fatal(err)
		}
		defer cs.Close()
		fmt.Println(cs.InitializeResult().Instructions)
	}

	connect()
	coach.Store("Be blunt.")
	connect()
	// Output:
	// Be gentle.
	// Be blunt.
}

// Trim keeps the head of long instructions, cut where a section ends, as a
// client that cuts at a fixed length would not.
func ExampleTrim() {
	text := "# Coach\nBe blunt.\n\n## Examples\nDo one hard thing today, then log it."
	fmt.Println(live.Trim(text, 30))
	// Output:
	// # Coach
	// Be blunt.
}
