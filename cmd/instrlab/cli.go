package main

import (
	"embed"

	"github.com/instrlab/instrlab/internal/cli"
)

// The words every command shares about its command line; internal/cli
// owns them.
type (
	usageError = cli.UsageError // a mistake on the command line: exit 2
	exitError  = cli.ExitError  // an error with its own exit code
	listFlag   = cli.ListFlag   // a flag that may be given more than once
)

const exitOK, exitFailure, exitUsage = cli.ExitOK, cli.ExitFailure, cli.ExitUsage

var (
	errHelp    = cli.ErrHelp // -h was given; the usage has been printed
	parseFlags = cli.ParseFlags
	splitList  = cli.SplitList
)

//go:embed usage
var usageFiles embed.FS

// usage is the text "instrlab NAME -h" prints before the flags
// (usage/NAME.txt).
func usage(name string) string {
	b, err := usageFiles.ReadFile("usage/" + name + ".txt")
	if err != nil {
		panic(err) // a command without its usage file: TestUsageFiles
	}
	return string(b)
}
