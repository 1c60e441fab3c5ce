package live_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// legacy is the newest protocol version of the initialize era; an empty
// version lets the go-sdk client probe with server/discover (2026-07-28).
const legacy = "2025-11-25"

// connect opens one session to server over the go-sdk's in-memory
// transports, as client name asking for protocol version (empty: the SDK's
// default, the modern era), and returns the instructions the client got.
func connect(server *mcp.Server, name, version string) string {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "v1"}, nil)
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()
	return cs.InitializeResult().Instructions
}

// Instructions chosen per client, from a map keyed by the client's name,
// with a default for clients the map does not know.
func ExampleInstall_perClient() {
	byClient := map[string]string{
		"claude-code": "Prefer the search tool over reading whole files.",
		"cursor":      "Keep answers short; the panel is narrow.",
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1"}, nil)
	live.Install(server, func(ctx context.Context, c live.Conn) (string, error) {
		if c.ClientInfo != nil {
			if text, ok := byClient[c.ClientInfo.Name]; ok {
				return text, nil
			}
		}
		return "Use the tools below to read and write notes.", nil
	}, nil)

	for _, name := range []string{"claude-code", "cursor", "other"} {
		fmt.Printf("%s: %s\n", name, connect(server, name, ""))
	}
	// Output:
	// claude-code: Prefer the search tool over reading whole files.
	// cursor: Keep answers short; the panel is narrow.
	// other: Use the tools below to read and write notes.
}

// The same resolver answers both protocol eras: initialize for clients of
// 2025-11-25 and earlier, server/discover for 2026-07-28 clients. Conn.Era
// says which one asked; the text is the same.
func ExampleInstall_bothEras() {
	server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1"}, nil)
	live.Install(server, func(ctx context.Context, c live.Conn) (string, error) {
		fmt.Println("resolving for", c.Era)
		return "Use the tools below to read and write notes.", nil
	}, nil)

	fmt.Println(connect(server, "old-client", legacy))
	fmt.Println(connect(server, "new-client", ""))
	// Output:
	// resolving for legacy
	// Use the tools below to read and write notes.
	// resolving for modern
	// Use the tools below to read and write notes.
}

// A resolver that fails, panics or misses its deadline never breaks the
// handshake: the client gets the fallback and the Report hook gets the
// failure.
func ExampleOptions_failOpen() {
	resolvers := map[string]live.Resolver{
		"error": func(ctx context.Context, c live.Conn) (string, error) {
			return "", errors.New("settings store unreachable")
		},
		"panic": func(ctx context.Context, c live.Conn) (string, error) {
			panic("nil settings")
		},
		"deadline": func(ctx context.Context, c live.Conn) (string, error) {
			<-ctx.Done() // a lookup that never answers in time
			return "", ctx.Err()
		},
	}
	for _, name := range []string{"error", "panic", "deadline"} {
		server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1"}, nil)
		live.Install(server, resolvers[name], &live.Options{
			Fallback: "Use the tools below.",
			Deadline: 50 * time.Millisecond,
			Report: func(c live.Conn, err error) {
				switch {
				case errors.Is(err, live.ErrDeadline):
					fmt.Println("report: deadline")
				case errors.Is(err, live.ErrPanic):
					fmt.Println("report: panic:", err)
				default:
					fmt.Println("report:", err)
				}
			},
		})
		fmt.Println("client got:", connect(server, "client", legacy))
	}
	// Output:
	// report: resolving legacy instructions: settings store unreachable
	// client got: Use the tools below.
	// report: panic: resolving legacy instructions: instructions resolver panicked: nil settings
	// client got: Use the tools below.
	// report: deadline
	// client got: Use the tools below.
}

// A budget reports instructions longer than a client keeps. Without Trim the
// text is sent whole and only reported; with Trim it is cut where a section
// ends.
func ExampleOptions_budget() {
	const text = "# Notes\nUse the tools below.\n\n## Style\nQuote note titles exactly."
	report := func(c live.Conn, err error) { fmt.Println("report:", err) }
	for _, trim := range []bool{false, true} {
		server := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "v1"}, nil)
		live.Install(server, func(ctx context.Context, c live.Conn) (string, error) {
			return text, nil
		}, &live.Options{Budget: 40, Trim: trim, Report: report})
		fmt.Printf("client got %q\n", connect(server, "client", ""))
	}
	// Output:
	// report: instructions over budget: 65 characters, budget 40, sent whole
	// client got "# Notes\nUse the tools below.\n\n## Style\nQuote note titles exactly."
	// report: instructions over budget: 65 characters, budget 40, trimmed to 28
	// client got "# Notes\nUse the tools below."
}
