package client

// An Info is what every adapter states the same way about its client: its
// name in -client flags, its name as its makers write it, the fake model
// API it talks to and the version it runs when none is named. Each adapter
// package holds its own (kilo.Info, ...); the registry (clients) lists them.
type Info struct {
	Name    string // in -client flags, as in "claude-code"
	Display string // as its makers write it, as in "Claude Code"
	API     string // the fake model API shape it talks to (fakeapi.Lookup)
	Default string // the version run when none is named: its pin
}

// At is the client at version, or at Default when version is empty: the
// Base its adapter's type embeds.
func (i Info) At(version string) Base {
	if version == "" {
		version = i.Default
	}
	return Base{Info: i, Version: version}
}

// A Base is one version of a client as its Info states it. Embedded in an
// adapter's type, it implements Spec and API for it; the adapter adds the
// rest of Client (Provision, Command, Observe).
type Base struct {
	Info    Info
	Version string
}

// Spec implements Client.
func (b Base) Spec() Spec { return Spec{Name: b.Info.Name, Version: b.Version} }

// API implements Client.
func (b Base) API() string { return b.Info.API }
