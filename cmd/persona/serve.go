package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/instrlab/instrlab/live"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// runServe serves MCP on stdio, or on Streamable HTTP with -http.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, db := newFlagSet("serve", "[-db PATH] [-http ADDR] [-stateful] [-deadline D] [-budget N [-trim]]", stderr)
	httpAddr := fs.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp (loopback only; host defaults to 127.0.0.1) instead of stdio")
	stateful := fs.Bool("stateful", false, "with -http: keep legacy sessions (Mcp-Session-Id); serves no 2026-07-28 client")
	deadline := fs.Duration("deadline", live.DefaultDeadline, "longest a connect waits for the persona before going ahead without it")
	budget := fs.Int("budget", 0, "warn when the instructions exceed `N` characters (0: no budget)")
	trim := fs.Bool("trim", false, "with -budget: cut longer instructions at the last section boundary that fits")
	if err := parse(fs, args, 0); err != nil {
		return err
	}
	if *stateful && *httpAddr == "" {
		return usageError{Msg: "-stateful needs -http"}
	}
	if *deadline <= 0 {
		return usageError{Msg: "-deadline must be positive"}
	}
	if *budget < 0 {
		return usageError{Msg: "-budget must not be negative"}
	}
	if *trim && *budget == 0 {
		return usageError{Msg: "-trim needs -budget"}
	}
	addr := ""
	if *httpAddr != "" {
		var err error
		if addr, err = listenAddr(*httpAddr); err != nil {
			return err
		}
	}

	logger := slog.New(slog.NewTextHandler(stderr, nil))
	sst, err := openStoreToServe(ctx, *db)
	if sst == nil {
		return err
	}
	defer sst.Close()
	if err != nil {
		logger.Warn("database unusable at startup; serving anyway, each connect gets no instructions until it is usable", "db", sst.Path(), "err", err)
	}
	st := sst.Store
	opts := &live.Options{Deadline: *deadline, Budget: *budget, Trim: *trim, Report: live.SlogReport(logger)}

	if addr == "" {
		t := &mcp.IOTransport{Reader: io.NopCloser(os.Stdin), Writer: nopWriteCloser{stdout}}
		if err := newServerReading(st, sst, opts).Run(ctx, t); err != nil && ctx.Err() == nil {
			return fmt.Errorf("serving stdio: %w", err)
		}
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("serving http: %w", err)
	}
	srv := &http.Server{Handler: httpHandler(newServerReading(st, sst, opts), !*stateful), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "persona: serving http://%s/mcp (database %s)\n", ln.Addr(), st.Path())
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serving http: %w", err)
	}
	return nil
}

// nopWriteCloser lets the MCP transport close its writer without closing
// the process's stdout.
type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
