package cline

import (
	"fmt"

	"github.com/instrlab/instrlab/internal/version"
)

// A line is one generation of what npm serves as cline: each installs,
// is configured, starts and prints differently (docs/clients.md, "Cline
// CLI before 3.0").
type line int

const (
	// notCLI is before 1.0.0: npm's cline 0.8.2 is another project's
	// package (kucoe's library for building command-line apps in Node),
	// with no executable.
	notCLI line = iota
	// goCLI is 1.x: a Go CLI (bin/cline) that starts a Cline Core
	// (cline-core.js on Node) and a host bridge (bin/cline-host) and
	// drives them over gRPC; its settings are the core's globalState.json
	// and secrets.json.
	goCLI
	// nodeCLI is 2.x: a Node CLI (dist/cli.mjs) running the same core in
	// its own process, with the same settings files.
	nodeCLI
	// bunCLI is 3.x and later: a compiled Bun executable with
	// providers.json (command.go).
	bunCLI
)

// lineOf is the line of a version; a version that is not a semantic
// version is taken for the newest line.
func lineOf(v string) line {
	switch {
	case !version.Valid(v):
		return bunCLI
	case version.Compare(v, "1.0.0") < 0:
		return notCLI
	case version.Compare(v, "2.0.0") < 0:
		return goCLI
	case version.Compare(v, "3.0.0") < 0:
		return nodeCLI
	}
	return bunCLI
}

// needsTool is why 1.x and 2.x cannot finish a run against the fakes:
// their core (the VS Code extension's, 3.47.0 in 1.0.9) ends a task only
// through a tool call, attempt_completion written as XML in the reply
// text, and counts a reply without one as a mistake ("[ERROR] You did not
// use a tool in your previous response!"); the fake model answers in plain
// text, so in --yolo mode the task fails after 3 such replies, exit 1.
// Measured on 2.18.0 and 2.14.0 (docs/clients.md, "Cline CLI before
// 3.0"); 1.x's core has the same code (read, see goCLIHangs).
const needsTool = "its core ends a task only through a tool call (attempt_completion, as XML in the reply) and the fake model answers in plain text: the task fails after 3 replies without a tool (\"Too many consecutive mistakes (3)\", exit 1; measured on 2.18.0, 3 requests)"

// goCLIHangs is why 1.x is not run at all: its CLI starts the core
// (cline-core.js on Node) and the host bridge in process groups of their
// own, outside the one the runner ends. Measured on 1.0.9 (2026-12-02):
// five times at load average 20-27 the CLI gave up when the core had not
// registered within 12 attempts ("instance not found in registry:
// database not available"), no request made; once (load average about
// 17-20) the core got past that and started the lab, and the run did not
// end before its 240 s timeout, after which the core, the host bridge and
// the lab were still running, and had to be ended by hand.
const goCLIHangs = "its CLI starts its core and host bridge in process groups of their own; measured on 1.0.9, a run either gave up waiting for the core to register (\"instance not found in registry\", five times at load average 20-27) or, once past that, did not end before its 240 s timeout and left the core, the host bridge and the lab running"

// Supports implements atlas.Supporter: a version before 1.0.0 is refused
// before anything is installed, as it is not Cline, and so is 1.x
// (refused); 2.x is refused for the sweep's probes, which need a finished
// run (needsTool), but Provision installs it: a run of 2.x records what it
// sent, and fails.
func (c *Cline) Supports(v string) error {
	if err := refused(v); err != nil {
		return err
	}
	if lineOf(v) == nodeCLI {
		return fmt.Errorf("%s@%s cannot finish a run against the fakes: %s", Name, v, needsTool)
	}
	return nil
}

// refused is why Provision refuses a version: before 1.0.0 it is not
// Cline; 1.x leaves processes behind (goCLIHangs), and its core has the
// rule of needsTool besides.
func refused(v string) error {
	switch lineOf(v) {
	case notCLI:
		return notCLIError(v)
	case goCLI:
		return fmt.Errorf("%s@%s is not run: %s; past that, its core ends a task only through a tool call, as 2.x's (read in cline-core.js)", Name, v, goCLIHangs)
	}
	return nil
}

func notCLIError(v string) error {
	return fmt.Errorf("%s@%s is not the Cline CLI: npm's cline before 1.0.0 is kucoe's library for building command-line apps in Node (package.json: no bin, main index.js), which has no executable to run", Name, v)
}
