package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/profiles/assess/annotate"
	"github.com/instrlab/instrlab/internal/table"
)

// exitNoConnect is check's exit code when a server could not be reached.
const exitNoConnect = 3

// probeServer is probe.Probe; tests wrap it to fix the timings.
var probeServer = probe.Probe

type checkFlags struct {
	// parsed and reported say how far the command got, for the JSON
	// error object: a report printed is not followed by one.
	parsed, reported bool

	json, scan, sameEras, show bool
	verbose                    bool
	config, server, profile    string
	serverJSON                 string
	format                     string
	name                       string
	timeout, maxStartup        time.Duration
	repeat, maxChars, maxToken int
	require                    listFlag
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f checkFlags
	err := checkCommand(ctx, args, &f, stdout, stderr)
	if err == nil || errors.Is(err, errHelp) {
		return err
	}
	err = cleanError(err)
	if f.json || (!f.parsed && jsonFlag(args)) {
		code := exitCode(err, io.Discard)
		if code == exitUsage || code == exitFailure && !f.reported {
			writeJSONError(stdout, code, err)
		}
	}
	return err
}

func checkCommand(ctx context.Context, args []string, fp *checkFlags, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	f := fp
	fs.BoolVar(&f.json, "json", false, "print the report as JSON (-format json)")
	fs.StringVar(&f.format, "format", "text", "output: text, json, github (workflow annotations) or sarif (SARIF 2.1.0 for code scanning)")
	fs.BoolVar(&f.show, "show", false, "print each era's instructions in full, with every profile's cut drawn in (and every client's details, as -v)")
	fs.BoolVar(&f.verbose, "v", false, "print the details of every client, arm and variant after the table")
	fs.StringVar(&f.config, "config", "", "check the servers of this Claude Code style MCP config (.mcp.json)")
	fs.StringVar(&f.serverJSON, "server-json", "", "check the server an MCP registry server.json describes: its npm packages started through npx, its remotes by URL (what cannot start here is named)")
	fs.StringVar(&f.server, "server", "", "with -config or -scan: check only the server of this name")
	fs.StringVar(&f.name, "name", "", "the server's name for a command or URL, as a client config would name it (default: the program's or host's name)")
	fs.BoolVar(&f.scan, "scan", false, "check the servers configured for Claude Code here: ./.mcp.json, and the user and local scopes of $HOME/.claude.json")
	fs.StringVar(&f.profile, "profile", "", "comma-separated client profiles: client@version, client (its newest), or a profile JSON file (default: every built-in profile)")
	fs.DurationVar(&f.timeout, "timeout", probe.DefaultTimeout, "time each era gets, and the fallback after an unanswered probe")
	fs.IntVar(&f.repeat, "repeat", 1, "run each era this many times, for the startup median and max")
	fs.IntVar(&f.maxChars, "max-chars", 0, "rule: instructions of any era at most this many characters")
	fs.IntVar(&f.maxToken, "max-tokens", 0, "rule: instructions of any era at most this many tokens (estimated)")
	fs.Var(&f.require, "require", "rule: this phrase survives every profile's cut in every era (repeatable)")
	fs.BoolVar(&f.sameEras, "require-same-eras", false, "rule: initialize and server/discover return the same instructions")
	fs.DurationVar(&f.maxStartup, "max-startup", 0, "rule: the slowest first reply is at most this long")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage:

	instrlab check [flags] -- COMMAND [ARGS...]   a stdio server
	instrlab check [flags] URL                    a Streamable HTTP server
	instrlab check [flags] -config FILE [-server NAME]
	instrlab check [flags] -scan [-server NAME]
	instrlab check [flags] -server-json server.json

Check shows what an MCP server sends in each protocol era and what each
client profile keeps of its instructions. Exit status: 0 clean, 1 a finding
breaks a rule, 2 usage or config error (with -json, a JSON error object),
3 a server could not be reached.

Flags:
`)
		fs.PrintDefaults()
		fmt.Fprintln(fs.Output())
		assess.WriteDocs(fs.Output(), table.DefaultWidth)
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case f.json && f.format != "text" && f.format != "json":
		return usageError{Msg: fmt.Sprintf("check: -json conflicts with -format %s", f.format)}
	case f.format == "json":
		f.json = true
	case annotate.Formats.Check(f.format) != nil:
		return usageError{Msg: "check: " + annotate.Formats.Check(f.format).Error()}
	}
	f.parsed = true
	targets, skipped, err := checkTargets(ctx, fs, args, *f)
	if err != nil {
		return err
	}
	for _, s := range skipped {
		fmt.Fprintf(stderr, "instrlab: %s: not checked: %s\n", f.serverJSON, s)
	}
	builtin, err := profiles.Builtin()
	if err != nil {
		return fmt.Errorf("check: loading profiles: %w", err)
	}
	var names []string
	if f.profile != "" {
		names = strings.Split(f.profile, ",")
	}
	ps, err := profiles.Select(builtin, names)
	if err != nil {
		return usageError{Msg: "check: -profile: " + err.Error()}
	}
	ps = profiles.Expand(ps) // every variant a profile measured, in its own view

	v, _ := version()
	opts := probe.Options{Timeout: f.timeout, Repeat: f.repeat, ClientName: "instrlab-check", ClientVersion: v}
	results := probeAll(ctx, targets, opts, stderr)
	if ctx.Err() != nil {
		return fmt.Errorf("check: %w", ctx.Err())
	}
	rep := assess.Assess(results, assess.Options{
		Profiles:  ps,
		Getenv:    os.LookupEnv,
		Timeout:   f.timeout,
		Selection: f.profile,
		Rules: assess.Rules{MaxChars: f.maxChars, MaxTokens: f.maxToken, Require: f.require,
			SameEras: f.sameEras, MaxStartup: f.maxStartup},
	})
	rep = rep.Redacted() // measured above on what the servers sent; printed redacted
	f.reported = true
	if f.json {
		f.format = "json"
	}
	text := assess.TextOptions{Verbose: f.verbose, Show: f.show, Width: table.Width(stdout)}
	if err := annotate.Write(stdout, rep, f.format, text, v); err != nil {
		return err
	}
	if names := rep.Unreached(); len(names) > 0 {
		return exitError{exitNoConnect, fmt.Errorf("check: could not reach %s", strings.Join(names, ", "))}
	}
	if rep.Failed() {
		return exitError{exitFailure, fmt.Errorf("check: findings break a rule")}
	}
	return nil
}

// checkTargets validates the flags and arguments and returns the servers to
// check, before any of them is started.
func checkTargets(ctx context.Context, fs *flag.FlagSet, args []string, f checkFlags) ([]probe.Target, []string, error) {
	rest := fs.Args()
	dashdash := len(args) > len(rest) && args[len(args)-len(rest)-1] == "--"
	switch {
	case f.repeat < 1:
		return nil, nil, usageError{Msg: "check: -repeat must be at least 1"}
	case f.timeout <= 0:
		return nil, nil, usageError{Msg: "check: -timeout must be positive"}
	case f.maxChars < 0 || f.maxToken < 0 || f.maxStartup < 0:
		return nil, nil, usageError{Msg: "check: -max-chars, -max-tokens and -max-startup must not be negative"}
	case f.serverJSON != "" && (f.config != "" || f.scan || len(rest) > 0):
		return nil, nil, usageError{Msg: "check: -server-json names the server: no -config, -scan, command or URL with it"}
	case f.config != "" && f.scan:
		return nil, nil, usageError{Msg: "check: -config and -scan are exclusive"}
	case (f.config != "" || f.scan) && len(rest) > 0:
		return nil, nil, usageError{Msg: fmt.Sprintf("check: unexpected argument %q with -config or -scan", rest[0])}
	case f.name != "" && (f.config != "" || f.scan):
		return nil, nil, usageError{Msg: "check: -name is for a command or URL; -config and -scan name their servers"}
	case f.name != "" && f.serverJSON != "":
		return nil, nil, usageError{Msg: "check: -name is for a command or URL; -server-json names its server"}
	case f.server != "" && f.config == "" && !f.scan:
		return nil, nil, usageError{Msg: "check: -server needs -config or -scan"}
	case f.config == "" && !f.scan && f.serverJSON == "" && len(rest) == 0:
		return nil, nil, usageError{Msg: "check: name a server: -- COMMAND [ARGS...], a URL, -config FILE, -scan or -server-json FILE"}
	}
	for _, r := range f.require {
		if r == "" {
			return nil, nil, usageError{Msg: "check: -require needs a non-empty phrase"}
		}
	}
	var ts []probe.Target
	var skipped []string
	switch {
	case f.serverJSON != "":
		var err error
		if ts, skipped, err = probe.ReadServerJSON(f.serverJSON, os.LookupEnv, exec.LookPath); err != nil {
			return nil, nil, configError(fmt.Errorf("check: -server-json: %w", err))
		}
	case dashdash:
		dir, err := os.Getwd()
		if err != nil {
			return nil, nil, fmt.Errorf("check: the working directory: %w", err)
		}
		name, from := probe.ServerName(dir, rest[0], rest[1:])
		ts = []probe.Target{{Name: name, NameFrom: from, Transport: probe.TransportStdio, Command: rest[0], Args: rest[1:]}}
	case len(rest) > 0:
		u, err := url.Parse(rest[0])
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, nil, usageError{Msg: fmt.Sprintf("check: %q is not an http(s) URL; to check a command, put it after --: instrlab check -- %s", rest[0], strings.Join(rest, " "))}
		}
		if len(rest) > 1 {
			return nil, nil, usageError{Msg: fmt.Sprintf("check: unexpected argument %q after the URL (flags go before it)", rest[1])}
		}
		ts = []probe.Target{{Name: u.Host, Transport: probe.TransportHTTP, URL: rest[0]}}
	case f.config != "":
		data, err := cli.ReadFile(ctx, f.config, cli.MaxConfig)
		if err != nil {
			return nil, nil, configError(fmt.Errorf("check: reading -config: %w", err))
		}
		if ts, err = probe.ParseConfig(data, f.config, os.LookupEnv); err != nil {
			return nil, nil, configError(fmt.Errorf("check: -config: %w", err))
		}
		for i := range ts {
			if ts[i].Dir, err = probe.StartDir(ts[i], f.config); err != nil {
				return nil, nil, configError(fmt.Errorf("check: -config: %w", err))
			}
		}
	default:
		dir, err := os.Getwd()
		if err != nil {
			return nil, nil, fmt.Errorf("check: -scan: %w", err)
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, nil, fmt.Errorf("check: -scan: %w", err)
		}
		if ts, err = probe.Scan(ctx, dir, home, os.LookupEnv); err != nil {
			return nil, nil, configError(fmt.Errorf("check: -scan: %w", err))
		}
		if len(ts) == 0 {
			return nil, nil, configError(fmt.Errorf("check: -scan: no MCP servers configured for Claude Code in %s or %s (user and local scopes)",
				filepath.Join(dir, ".mcp.json"), filepath.Join(home, ".claude.json")))
		}
	}
	if f.name != "" {
		ts[0].Name, ts[0].NameFrom = f.name, ""
	}
	if f.server != "" {
		var err error
		if ts, err = probe.Select(ts, f.server); err != nil {
			return nil, nil, usageError{Msg: "check: -server: " + err.Error()}
		}
	}
	if len(ts) == 0 {
		return nil, nil, configError(errors.New("check: no MCP servers configured"))
	}
	return ts, skipped, nil
}

// configError is a config that cannot be read as a client would: exit
// status 2, as a usage error.
func configError(err error) error { return exitError{exitUsage, err} }
