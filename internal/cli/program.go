package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// A Command is one subcommand of a Program.
type Command struct {
	Name, Summary string
	Run           Func
}

// A Topic is help that is no command's: "help finding CODE".
type Topic struct {
	Name, Summary string
	// Help writes the topic's help for its arguments; a usage error for
	// arguments it does not know.
	Help func(args []string, stdout io.Writer) error
}

// A Program is a command made of subcommands, as "instrlab run ...": it
// runs the one its first argument names, and answers -h and "help
// [command]" (the help of one command is its -h) or "help TOPIC ...".
type Program struct {
	Name, Title string
	Commands    []Command
	Topics      []Topic
}

// Run runs the subcommand args name.
func (p Program) Run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		p.usage(stderr)
		return UsageError{Msg: "no command given"}
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "-help", "--help":
		p.usage(stdout)
		return nil
	case "help":
		return p.help(ctx, rest, stdout, stderr)
	}
	if c, ok := p.command(name); ok {
		return c.Run(ctx, rest, stdout, stderr)
	}
	return UsageError{Msg: fmt.Sprintf("unknown command %q (run \"%s help\")", name, p.Name)}
}

func (p Program) command(name string) (Command, bool) {
	for _, c := range p.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// usage lists the commands, help last.
func (p Program) usage(w io.Writer) {
	fmt.Fprintf(w, "%s: %s\n\nUsage:\n\n\t%s <command> [flags] [args]\n\nCommands:\n\n", p.Name, p.Title, p.Name)
	for _, c := range append(p.Commands, Command{Name: "help", Summary: "print this help, or the help of one command"}) {
		fmt.Fprintf(w, "\t%-10s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "\nRun \"%s help <command>\" or \"%s <command> -h\" for a command's flags.\n", p.Name, p.Name)
	for _, t := range p.Topics {
		fmt.Fprintf(w, "Run \"%s help %s\" for %s.\n", p.Name, t.Name, t.Summary)
	}
	fmt.Fprint(w, GlossaryLine)
}

// help prints the usage, or runs a command with -h.
func (p Program) help(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		p.usage(stdout)
		return nil
	}
	for _, t := range p.Topics {
		if t.Name == args[0] {
			return t.Help(args[1:], stdout)
		}
	}
	c, ok := p.command(args[0])
	if !ok {
		return UsageError{Msg: fmt.Sprintf("help: unknown command %q", args[0])}
	}
	if err := c.Run(ctx, append(args[1:], "-h"), stdout, stderr); !errors.Is(err, ErrHelp) {
		return err
	}
	return nil
}
