package claudecode

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

	"github.com/instrlab/instrlab/internal/client"
	"github.com/instrlab/instrlab/internal/jsonl"
)

// A Debug is what Claude Code's --debug-file says about MCP servers.
type Debug struct {
	Truncations []client.Truncation
	// ProtocolEra and NegotiatedVersion are keyed by server name, from the
	// "Connection established with capabilities" line.
	ProtocolEra       map[string]string
	NegotiatedVersion map[string]string
	// RuntimeArm and ArmSource are the "mcp runtime arm" line's arm and
	// source, as in "mcp runtime arm: v2 (source: default)".
	RuntimeArm, ArmSource string
	Lines                 int
}

// The regexps are compiled on first use, not at every start of instrlab.
var (
	truncRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`MCP server "([^"]*)": Server instructions truncated from ([0-9]+) to ([0-9]+) chars`)
	})
	connRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`MCP server "([^"]*)": Connection established`) })
	eraRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"protocolEra":"([^"]*)"`) })
	negRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"negotiatedProtocolVersion":"([^"]*)"`) })
	armRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`mcp runtime arm: (\S+)(?: \(source: ([^)]*)\))?`) })
)

// ParseDebug reads a debug log. Unknown lines are skipped silently (most
// lines are about other things); numbers that do not parse are warnings.
func ParseDebug(r io.Reader, name string) (Debug, []string) {
	d := Debug{ProtocolEra: map[string]string{}, NegotiatedVersion: map[string]string{}}
	var warnings []string
	warnings = append(warnings, jsonl.Lines(r, name, func(n int, b []byte) error {
		d.Lines = n
		line := string(b)
		if m := truncRE().FindStringSubmatch(line); m != nil {
			from, err1 := strconv.Atoi(m[2])
			to, err2 := strconv.Atoi(m[3])
			if err1 != nil || err2 != nil {
				return fmt.Errorf("truncation line with bad numbers")
			}
			d.Truncations = append(d.Truncations, client.Truncation{Server: m[1], From: from, To: to, Where: fmt.Sprintf("%s:%d", name, n)})
			return nil
		}
		if m := connRE().FindStringSubmatch(line); m != nil {
			if e := eraRE().FindStringSubmatch(line); e != nil {
				d.ProtocolEra[m[1]] = e[1]
			}
			if v := negRE().FindStringSubmatch(line); v != nil {
				d.NegotiatedVersion[m[1]] = v[1]
			}
			return nil
		}
		if m := armRE().FindStringSubmatch(line); m != nil && d.RuntimeArm == "" {
			d.RuntimeArm, d.ArmSource = m[1], m[2]
		}
		return nil
	})...)
	return d, warnings
}
