// Command bareclient is the client-side baseline of instrlab's benchmark:
// the official go-sdk client with nothing added. It spawns the command
// given after its flags through mcp.CommandTransport, connects (initialize),
// lists the tools and closes: what any MCP client does before it can use a
// server. It prints nothing on success and exits 1 with the error
// otherwise; `instrlab check` on the same server is measured against it
// (BenchmarkCheckVsBareClient in cmd/instrlab).
//
// It is built like instrlab (go build, default flags), as bareserver is.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp), errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintf(os.Stderr, "bareclient: %v\n", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("bareclient", flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("timeout", 10*time.Second, "how long the whole conversation may take")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: bareclient [-timeout D] COMMAND [ARG...]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stderr = stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "bareclient", Version: "0.1.0"}, nil)
	s, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", fs.Arg(0), err)
	}
	_, lerr := s.ListTools(ctx, nil)
	if lerr != nil {
		lerr = fmt.Errorf("listing tools: %w", lerr)
	}
	cerr := s.Close()
	if cerr != nil {
		cerr = fmt.Errorf("closing: %w", cerr)
	}
	return errors.Join(lerr, cerr)
}
