package fakeclient

import (
	"context"
	"os"
	"slices"
	"time"

	"github.com/instrlab/instrlab/lab"
)

// LabCPUEnv, set to a duration in a run's environment, has the lab server
// use that much CPU time before it serves, so that a test can tell the
// lab's CPU from the client's.
const LabCPUEnv = "FAKE_LAB_CPU"

// serveLab serves the lab on stdin and stdout when the process was started
// as "serve lab [flags]" by the fake client, and exits; otherwise it
// returns at once. It reads the flags as "instrlab serve lab" does
// (lab.ParseArgs).
func serveLab() {
	n := len(lab.Subcommand)
	if os.Getenv(LabEnv) != "1" || len(os.Args) < 1+n || !slices.Equal(os.Args[1:1+n], lab.Subcommand) {
		return
	}
	if d, err := time.ParseDuration(os.Getenv(LabCPUEnv)); err == nil {
		burnCPU(d)
	}
	a, err := lab.ParseArgs(os.Args[1+n:])
	if err != nil {
		os.Exit(2)
	}
	cfg, err := a.Config()
	if err != nil {
		os.Exit(2)
	}
	var how string
	cfg.Started, how = lab.ProcessStart()
	if a.Log != "" {
		if cfg.Log, err = lab.OpenMessageLog(a.Log); err != nil {
			os.Exit(1)
		}
		cfg.Log.Started(cfg.Started, how)
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
