package fakeclient

import (
	"context"
	"flag"
	"os"

	"github.com/instrlab/instrlab/lab"
)

// serveLab serves the lab on stdin and stdout when the process was started
// as "serve lab [flags]" by the fake client, and exits; otherwise it
// returns at once. It understands the flags the runner passes.
func serveLab() {
	if os.Getenv(LabEnv) != "1" || len(os.Args) < 3 || os.Args[1] != "serve" || os.Args[2] != "lab" {
		return
	}
	fs := flag.NewFlagSet("serve lab", flag.ExitOnError)
	instr := fs.String("instr", "none", "")
	era := fs.String("era", lab.EraLegacy, "")
	initDelay := fs.Duration("init-delay", 0, "")
	discoverDelay := fs.Duration("discover-delay", 0, "")
	onUnknown := fs.String("on-unknown", lab.UnknownError, "")
	logPath := fs.String("log", "", "")
	_ = fs.Parse(os.Args[3:])
	in, err := lab.ParseInstructions(*instr)
	if err != nil {
		os.Exit(2)
	}
	cfg := lab.Config{Instructions: in, Era: *era, InitDelay: *initDelay, DiscoverDelay: *discoverDelay, OnUnknown: *onUnknown}
	if *logPath != "" {
		if cfg.Log, err = lab.OpenMessageLog(*logPath); err != nil {
			os.Exit(1)
		}
	}
	l, err := lab.New(cfg)
	if err != nil {
		os.Exit(2)
	}
	err = l.ServeStdio(context.Background(), os.Stdin, os.Stdout)
	cfg.Log.Close()
	if err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}
