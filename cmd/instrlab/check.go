package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/instrlab/instrlab/internal/cli"
	"github.com/instrlab/instrlab/internal/probe"
	"github.com/instrlab/instrlab/internal/profiles"
	"github.com/instrlab/instrlab/internal/profiles/assess"
	"github.com/instrlab/instrlab/internal/profiles/assess/annotate"
	"github.com/instrlab/instrlab/internal/redact"
	"github.com/instrlab/instrlab/internal/table"
	"github.com/instrlab/instrlab/internal/untrusted"
)

// probeServer is probe.Probe; tests wrap it to fix the timings.
var probeServer = probe.Probe

// checkOptions are the flags of "instrlab check", and what validate makes
// of them.
type checkOptions struct {
	json, show, verbose    bool
	format, profile, model string
	spec                   probe.Spec
	probe                  probe.Options
	rules                  assess.Rules
	require, calls         listFlag

	// parsed and reported say how far the command got, for the JSON
	// error object: a report printed is not followed by one.
	parsed, reported bool
	targets          []probe.Target
	skipped          []string                           // what a server.json describes that cannot start here
	pick             func() ([]profiles.Profile, error) // the views of -profile and -model (profiles.PickLater)
}

func (o *checkOptions) flags(fs *flag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "print the report as JSON (-format json)")
	fs.StringVar(&o.format, "format", "text", "output: text, md (the verdicts and fixes in Markdown, for a job summary), json, github (workflow annotations) or sarif (SARIF 2.1.0 for code scanning)")
	fs.BoolVar(&o.show, "show", false, "print each era's instructions in full, with every profile's cut drawn in (and every client's details, as -v)")
	fs.BoolVar(&o.verbose, "v", false, "print the details of every client and arm after the table")
	fs.StringVar(&o.spec.Config, "config", "", "check the servers of this Claude Code style MCP config (.mcp.json)")
	fs.StringVar(&o.spec.ServerJSON, "server-json", "", "check the server an MCP registry server.json describes: its npm packages started through npx, its remotes by URL (what cannot start here is named)")
	fs.Func("header", "send this header to the URL's server, or give a header a server.json's remote lists, as 'NAME: VALUE' (repeatable; never taken from the environment)", o.spec.AddHeader)
	fs.BoolVar(&o.spec.AllowRemote, "allow-remote", false, "with -server-json: probe its remotes on other hosts than this machine (default: loopback only)")
	fs.StringVar(&o.spec.Server, "server", "", "with -config or -scan: check only the server of this name")
	fs.StringVar(&o.spec.Name, "name", "", "the server's name for a command or URL, as a client config would name it (default: the program's or host's name)")
	fs.BoolVar(&o.spec.Scan, "scan", false, "check the servers configured for Claude Code here: ./.mcp.json, and the user and local scopes of $HOME/.claude.json")
	fs.StringVar(&o.profile, "profile", "", "comma-separated client profiles: client@version, client (its newest), or a profile JSON file (default: every built-in profile)")
	fs.StringVar(&o.model, "model", "", "check only the clients measured with this model, as their requests named it (claude-haiku-5-5): each one's view of that model")
	fs.DurationVar(&o.probe.Timeout, "timeout", probe.DefaultTimeout, "time each era gets, and the fallback after an unanswered probe")
	fs.IntVar(&o.probe.Repeat, "repeats", 1, "run each era this many times, for the startup median and max")
	fs.IntVar(&o.rules.MaxChars, "max-chars", 0, "rule: instructions of any era at most this many characters")
	fs.IntVar(&o.rules.MaxTokens, "max-tokens", 0, "rule: instructions of any era at most this many tokens (estimated)")
	fs.Var(&o.calls, "call", "call this tool of the server once (in the initialize era, after tools/list), as TOOL or TOOL={JSON input}, and predict per client what of its result reaches the model and whether whole (repeatable; a tool with side effects has them)")
	fs.Var(&o.require, "require", "rule: this phrase survives every profile's cut in every era (repeatable)")
	fs.BoolVar(&o.rules.SameEras, "require-same-eras", false, "rule: initialize and server/discover return the same instructions")
	fs.DurationVar(&o.rules.MaxStartup, "max-startup", 0, "rule: the slowest first reply is at most this long")
	fs.IntVar(&o.rules.MaxName, "max-name", 0, "rule: each tool's name at most this many characters, also as each client profile measured it names the tool (its prefix and the server's name included)")
	fs.Usage = cli.Usage(fs, usage("check"), func(w io.Writer) { assess.WriteDocs(w, table.DefaultWidth) })
}

// runCheck is "instrlab check". Its errors are redacted and escaped; with
// -json, a usage error or a failure before the report is an error object
// on stdout.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o checkOptions
	err := o.main(ctx, args, stdout, stderr)
	if err == nil || errors.Is(err, errHelp) {
		return err
	}
	err = cli.Clean(err, func(s string) string { return untrusted.EscapeLine(redact.String(s)) })
	if o.json || (!o.parsed && cli.BoolSet(args, "json")) {
		code := cli.ExitCode("", err, io.Discard)
		if code == exitUsage || code == exitFailure && !o.reported {
			annotate.WriteError(stdout, code, err)
		}
	}
	return err
}

func (o *checkOptions) main(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o.flags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rest := fs.Args()
	o.spec.Args, o.spec.DashDash = rest, len(args) > len(rest) && args[len(args)-len(rest)-1] == "--"
	if err := o.validate(ctx); err != nil {
		return err
	}
	return o.run(ctx, stdout, stderr)
}

// validate checks the flags and reads the servers and profiles, before
// any server starts.
func (o *checkOptions) validate(ctx context.Context) error {
	o.rules.Require = o.require
	format, err := annotate.Format(o.format, o.json)
	if err != nil {
		return usageError{Msg: "check: " + err.Error()}
	}
	o.format, o.json, o.parsed = format, format == "json", true
	for _, err := range []error{o.probe.Validate(), o.rules.Validate(), o.spec.Validate()} {
		if err != nil {
			return usageError{Msg: "check: " + err.Error()}
		}
	}
	if o.probe.Calls, err = probe.ParseCalls(o.calls); err != nil {
		return usageError{Msg: "check: -call: " + err.Error()}
	}
	if o.targets, o.skipped, err = o.spec.Targets(ctx, os.LookupEnv, exec.LookPath); err != nil {
		return usageError{Msg: "check: " + err.Error()}
	}
	if o.pick, err = profiles.PickLater(ctx, o.profile, o.model); err != nil {
		return usageError{Msg: "check: " + err.Error()}
	}
	o.probe.SampleAbove = assess.SampleAboveOf(o.pick, os.LookupEnv)
	return nil
}

// run probes the servers, assesses them against the profiles and rules,
// and prints the report: exit 3 when a server could not be reached, 1
// when a finding breaks a rule.
func (o *checkOptions) run(ctx context.Context, stdout, stderr io.Writer) error {
	for _, s := range o.skipped {
		fmt.Fprintf(stderr, "instrlab: %s: not checked: %s\n", o.spec.ServerJSON, s)
	}
	v, _ := cli.Version()
	o.probe.ClientName, o.probe.ClientVersion = "instrlab-check", v
	results := probe.All(ctx, o.targets, o.probe, stderr, probeServer)
	views, err := o.pick()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	rep := assess.Assess(results, assess.Options{Profiles: views, Getenv: os.LookupEnv, Timeout: o.probe.Timeout, Rules: o.rules, Selection: o.profile})
	rep = rep.Redacted() // measured above on what the servers sent; printed redacted
	o.reported = true
	text := assess.TextOptions{Verbose: o.verbose, Show: o.show, Width: table.Width(stdout)}
	if err := annotate.Write(stdout, rep, o.format, text, v); err != nil {
		return err
	}
	return annotate.Exit(rep)
}
