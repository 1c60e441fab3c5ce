package probe

import (
	"errors"
	"time"
)

// Options control a probe.
type Options struct {
	// Timeout bounds each era's conversation, and the fallback after a
	// probe that was not answered. Zero means DefaultTimeout.
	Timeout time.Duration
	// Repeat is how many times each era is run, for startup statistics.
	// Zero means once.
	Repeat int
	// ClientName and ClientVersion are sent as clientInfo.
	ClientName, ClientVersion string
	// Calls are tools to call once each, in the legacy era, after the
	// tools were listed (check -call): each gets Timeout.
	Calls []Call
	// Samples is how many extra processes of a stdio server are started
	// alongside the eras' first run, each only to time spawn to the first
	// reply of initialize: their times join Startup.Legacy. Zero means
	// DefaultSamples; NoSamples takes none (a command line's 0, which
	// Validate accepts, is NoSamples).
	Samples int
	// SampleAbove, when set, is asked once the eras' first replies came:
	// the samples that waited for them are taken only when it says ok and
	// the legacy era's reply came d or later after spawn. A start-up far
	// inside every client's wait needs no distribution, and none is
	// needed without a wait to judge it by (check asks the profiles',
	// assess.SampleAbove, which it may still be reading meanwhile). nil
	// takes them.
	SampleAbove func() (d time.Duration, ok bool)
}

// Validate rejects options a command line set out of range, naming the
// flag.
func (o Options) Validate() error {
	switch {
	case o.Repeat < 1:
		return errors.New("-repeats must be at least 1")
	case o.Timeout <= 0:
		return errors.New("-timeout must be positive")
	case o.Samples < 0:
		return errors.New("-samples must not be negative")
	}
	return nil
}

// DefaultTimeout is the time each era gets by default.
const DefaultTimeout = 10 * time.Second

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Repeat <= 0 {
		o.Repeat = 1
	}
	switch {
	case o.Samples == 0:
		o.Samples = DefaultSamples
	case o.Samples < 0:
		o.Samples = 0
	}
	if o.ClientName == "" {
		o.ClientName = "instrlab-check"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "devel"
	}
	return o
}

func (o Options) clientInfo() map[string]any {
	return map[string]any{"name": o.ClientName, "version": o.ClientVersion}
}

// initializeParams are the params of a 2025-11-25 initialize with no client
// capabilities, so that the server has nothing to ask of the probe.
func (o Options) initializeParams() map[string]any {
	return map[string]any{
		"protocolVersion": LegacyVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      o.clientInfo(),
	}
}

// meta is the _meta every 2026-07-28 request carries: the protocol version,
// the client's identity and its capabilities (required).
func (o Options) meta() map[string]any {
	return map[string]any{
		"io.modelcontextprotocol/protocolVersion":    ModernVersion,
		"io.modelcontextprotocol/clientInfo":         o.clientInfo(),
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
}

func (o Options) discoverParams() map[string]any {
	return map[string]any{"_meta": o.meta()}
}

// pageParams are the params of a list request; nil (no params member at
// all) for the first legacy page, since some servers do not answer
// "params": null.
func (o Options) pageParams(cursor string, modern bool) any {
	p := map[string]any{}
	if cursor != "" {
		p["cursor"] = cursor
	}
	if modern {
		p["_meta"] = o.meta()
	}
	if len(p) == 0 {
		return nil
	}
	return p
}
