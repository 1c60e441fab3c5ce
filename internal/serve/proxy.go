package serve

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/lab"
)

// serveProxy runs "instrlab serve proxy" with args, its flags and command.
func serveProxy(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve proxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	logPath := fs.String("log", "", "append every message in both directions to this JSON Lines file (the lab's message log)")
	httpAddr := fs.String("http", "", "serve Streamable HTTP at http://ADDR/mcp, forwarding to -upstream (a bare :PORT binds 127.0.0.1)")
	upstream := fs.String("upstream", "", "the server's Streamable HTTP endpoint, with -http")
	commandFile := fs.String("command-file", "", "start the server from this JSON file ({\"command\", \"args\", \"env\"}) instead of a command after --")
	hold := fs.Duration("hold", 0, "hold the server's reply that completes the handshake (its first initialize or server/discover result) this long, as a server slow to start would (stdio only)")
	fs.Usage = cli.Usage(fs, "Usage: instrlab serve proxy [-log FILE] -- COMMAND [ARG...]\n"+
		"       instrlab serve proxy [-log FILE] -http ADDR -upstream URL\n\n"+
		"A transparent recording proxy in front of any MCP server: bytes pass unchanged,\n"+
		"and every message is logged as the lab logs its own.\n\nFlags:\n")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	command := fs.Args()
	var sc lab.ServerCommand
	if *commandFile != "" {
		if len(command) > 0 || *httpAddr != "" {
			return cli.UsageError{Msg: "serve proxy: -command-file replaces the command and -http"}
		}
		var err error
		if sc, err = lab.ReadServerCommand(*commandFile); err != nil {
			return cli.UsageError{Msg: "serve proxy: " + err.Error()}
		}
		command = append([]string{sc.Command}, sc.Args...)
	}
	switch {
	case *httpAddr == "" && *upstream != "":
		return cli.UsageError{Msg: "serve proxy: -upstream needs -http"}
	case *httpAddr != "" && *upstream == "":
		return cli.UsageError{Msg: "serve proxy: -http needs -upstream URL"}
	case *httpAddr != "" && len(command) > 0:
		return cli.UsageError{Msg: "serve proxy: give either -http with -upstream, or a command, not both"}
	case *httpAddr == "" && len(command) == 0:
		return cli.UsageError{Msg: "serve proxy: name the server's command after --"}
	case *hold < 0:
		return cli.UsageError{Msg: "serve proxy: -hold must not be negative"}
	case *hold > 0 && *httpAddr != "":
		return cli.UsageError{Msg: "serve proxy: -hold is for a stdio server, not -http"}
	case *httpAddr != "" && !loopbackAddr(*httpAddr):
		return cli.UsageError{Msg: fmt.Sprintf("serve proxy: -http %s is not a loopback address", *httpAddr)}
	}
	var log *lab.MessageLog
	if *logPath != "" {
		var err error
		if log, err = lab.OpenMessageLog(*logPath); err != nil {
			return err
		}
		if err := log.Started(lab.ProcessStart()); err != nil {
			log.Close()
			return err
		}
	}
	p := lab.NewProxy(log)
	p.Hold, p.Urgent = *hold, cli.Urgent(ctx)
	var err error
	if *httpAddr != "" {
		h, herr := p.HTTPHandler(*upstream)
		if herr != nil {
			return cli.UsageError{Msg: "serve proxy: -upstream: " + herr.Error()}
		}
		err = serveHTTP(ctx, cmdline{"instrlab", "instrlab serve proxy", "serve proxy: "}, "proxy", h, log, *httpAddr, false, stderr)
	} else {
		sc.Command, sc.Args = command[0], command[1:]
		err = p.ServeCommand(ctx, sc.Cmd(os.Environ()), stdin, stdout, stderr)
	}
	if cerr := log.Close(); err == nil {
		err = cerr
	}
	return err
}
